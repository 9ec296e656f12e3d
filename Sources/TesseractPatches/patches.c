// The switch of the patches (tesseract_patches.h), and the lookup of the functions they hand calls on to.
#define _GNU_SOURCE
#include <dlfcn.h>
#include "tesseract_patches.h"
#include "internal.h"

static int enabled;

void TesseractPatches_setEnabled(int mask) { __atomic_store_n(&enabled, mask, __ATOMIC_RELEASE); }

int TesseractPatches_enabled(void) { return __atomic_load_n(&enabled, __ATOMIC_ACQUIRE); }

int tesseractPatchOn(int patch) { return (TesseractPatches_enabled() & patch) != 0; }

void *libraryFunction(void **slot, const char *name) {
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = dlsym(RTLD_NEXT, name);
        if (f != NULL) __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    }
    return f;
}
