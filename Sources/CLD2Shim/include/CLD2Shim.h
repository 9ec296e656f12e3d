#ifndef CLD2SHIM_H
#define CLD2SHIM_H
// Plain-C face of cld2 (C++), so Swift importers need no C++ interop.
#ifdef __cplusplus
extern "C" {
#endif

/// Detects the language of UTF-8 text. Writes the ISO 639-1 code (e.g. "de") into `code`
/// (at least 8 bytes), returns the percent of text in that language (0–100), and sets
/// `reliable` to 1 when cld2 calls the result reliable. Returns -1 when cld2 finds nothing.
int CLD2Shim_detect(const char *utf8, int length, char *code, int codeCapacity, int *reliable);

/// The version string of the cld2 shim (cld2 has no runtime version call).
const char *CLD2Shim_version(void);

#ifdef __cplusplus
}
#endif
#endif
