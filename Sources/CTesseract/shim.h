// tesseract's C API only (capi.h). Linked by name, not pkg-config: tesseract.pc lists -lcurl.
#include <tesseract/capi.h>
