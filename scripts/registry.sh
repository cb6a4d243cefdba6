#!/usr/bin/env bash
# The fuzz-target registry (src/registry.def) for shell scripts, which may run
# before anything is built (.clusterfuzzlite/build.sh):
#   scripts/registry.sh targets [ROLE...]   names, one per line, in order;
#                                           ROLE: lockstep, self_check, front_end, race
#   scripts/registry.sh field TARGET FIELD  subject, level, role or dict
# Sourced, it defines registry_targets and registry_field instead.
registry_file="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/src/registry.def"
registry_re='^DIFFSCHED_TARGET\(([a-z0-9_]+), "([a-z0-9_]*)", ([A-Za-z]+), ([a-z_]+), "([a-z0-9_]*)",'

registry_targets() {  # registry_targets [ROLE...]
  local line role
  while IFS= read -r line; do
    [[ $line == DIFFSCHED_TARGET\(* ]] || continue
    if [[ ! $line =~ $registry_re ]]; then
      echo "registry.sh: src/registry.def: cannot read: ${line:0:60}" >&2; return 2
    fi
    if (($# == 0)); then echo "${BASH_REMATCH[1]}"; continue; fi
    for role in "$@"; do
      [[ ${BASH_REMATCH[4]} == "$role" ]] && echo "${BASH_REMATCH[1]}"
    done
  done <"$registry_file"
}

registry_field() {  # registry_field TARGET FIELD
  local line idx
  case $2 in subject) idx=2 ;; level) idx=3 ;; role) idx=4 ;; dict) idx=5 ;;
    *) echo "registry.sh: no field '$2' (subject, level, role, dict)" >&2; return 2 ;; esac
  while IFS= read -r line; do
    if [[ $line =~ $registry_re && ${BASH_REMATCH[1]} == "$1" ]]; then
      echo "${BASH_REMATCH[$idx]}"; return 0
    fi
  done <"$registry_file"
  echo "registry.sh: no target '$1' in src/registry.def" >&2; return 2
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  case ${1:-} in
    targets) shift; registry_targets "$@" ;;
    field) (($# == 3)) || { echo "usage: registry.sh field TARGET FIELD" >&2; exit 2; }
           registry_field "$2" "$3" ;;
    *) echo "usage: registry.sh targets [ROLE...] | field TARGET FIELD" >&2; exit 2 ;;
  esac
fi
