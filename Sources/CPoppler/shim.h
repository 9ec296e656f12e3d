// poppler-glib + cairo (+ glib, gobject). pkg-config "poppler-glib" brings all of them.
#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <glib-object.h>

// G_OBJECT / POPPLER_ERROR are macros Swift cannot import.
static inline void CPoppler_unref(void *object) { if (object) g_object_unref(object); }
static inline GQuark CPoppler_error_quark(void) { return poppler_error_quark(); }
