/* SPDX-License-Identifier: MIT */
/*
 * kshim/detect: the directory of the unsaved file that kernel-check's form
 * detection (src/kcheck/c_source.cpp) parses with libclang. This header is
 * empty on purpose: it stands for the cpudeadline.h that is staged later,
 * whose choice depends on the form being detected. Only what the file
 * itself defines is read.
 */
