// libxml2's SAX2 parser, for the e-invoice reader (ShoeboxEInvoice/SAXParser.swift).
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and encoding.h then includes the system's <unicode/ucnv.h>, whose enums clash
// with Foundation's own ICU module. Nothing here converts encodings (the reader takes UTF-8 only), and the ICU
// fields are inside xmlCharEncodingHandler, which is only ever handled by pointer: the declarations without them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/entities.h>
#include <libxml/xmlerror.h>
