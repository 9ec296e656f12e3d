#include <stdio.h>   // cld2's header uses FILE without including it
#include <string.h>
#include <cld2/public/compact_lang_det.h>
#include "CLD2Shim.h"

extern "C" int CLD2Shim_detect(const char *utf8, int length, char *code, int codeCapacity, int *reliable) {
    bool isReliable = false;
    int percent3[3] = {0, 0, 0};
    CLD2::Language language3[3];
    double normalized3[3];
    int textBytes = 0;
    CLD2::Language lang = CLD2::ExtDetectLanguageSummary(
        utf8, length, true, nullptr, 0, language3, percent3, normalized3, nullptr, &textBytes, &isReliable);
    if (reliable) *reliable = isReliable ? 1 : 0;
    if (lang == CLD2::UNKNOWN_LANGUAGE) return -1;
    const char *c = CLD2::LanguageCode(lang);
    if (!c || codeCapacity <= 0) return -1;
    strncpy(code, c, codeCapacity - 1);
    code[codeCapacity - 1] = 0;
    return percent3[0];
}

extern "C" const char *CLD2Shim_version(void) { return "cld2 (Debian libcld2 0.0.197)"; }
