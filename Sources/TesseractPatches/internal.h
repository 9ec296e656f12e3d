#ifndef TESSERACT_PATCHES_INTERNAL_H
#define TESSERACT_PATCHES_INTERNAL_H
// Shared by the patches of this target (tesseract_patches.h says what they are).

/// Whether `patch` (a TesseractPatch… bit) is turned on.
int tesseractPatchOn(int patch);

/// The library's own function of this name (the next definition after this executable's, in load order),
/// looked up once into `slot`; NULL when no library defines it.
void *libraryFunction(void **slot, const char *name);

#endif
