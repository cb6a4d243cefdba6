# cmake -DFILE=PATH -P write-sha256.cmake: writes PATH.sha256, the file's
# SHA-256 as hex (the kcheck harness's, recorded when it is built).
file(SHA256 "${FILE}" hash)
file(WRITE "${FILE}.sha256" "${hash}\n")
