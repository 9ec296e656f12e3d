// Poppler-glib hands out a page's image only decoded, as a cairo surface of 4 bytes a pixel (two of them for a
// moment), and cairo rendering decodes it whole as well: a 600-dpi A4 scan in a PDF (35 megapixels) takes
// 2 × 132 MB, and a PDF holding a 20000 × 20000 image would take 3.2 GB before any size limit could look at
// it. Poppler-glib does not tell an image's size without decoding it.
//
// qpdf reads the page's image dictionaries instead: its /Width and /Height, and for a JPEG (DCTDecode) the
// stored bytes, which Shoebox's image loader decodes like a JPEG file (at 1/2–1/8 by libjpeg when large, to
// its luminance). CCITT fax data (black-and-white office scans) is wrapped in a TIFF header that carries the
// PDF's coding parameters, and leptonica decodes it at 1 bit a pixel (a 600-dpi A4 page: 4.4 MB). Flate
// pixels (gray or RGB, as img2pdf stores a PNG) are inflated here one row at a time into a leptonica image.
// Only images in the page's own resources are seen (not those inside form XObjects); for everything else
// (JBIG2, masks, /Decode arrays, CMYK and other colour spaces) poppler decodes the page.
#include <stdlib.h>
#include <string.h>
#include <qpdf/qpdf-c.h>
#include <zlib.h>
#include <leptonica/allheaders.h>
#include "PDFImages.h"
#include "internal.h"

struct PDFImages {
    qpdf_data qpdf;
    unsigned char *bytes;
    size_t length;
    int state;  // 0 not read yet, 1 read, -1 qpdf cannot read it
};

PDFImages *PDFImages_open(const unsigned char *bytes, size_t length) {
    PDFImages *images = calloc(1, sizeof *images);
    if (images == NULL) return NULL;
    images->bytes = malloc(length > 0 ? length : 1);
    if (images->bytes == NULL) { free(images); return NULL; }
    if (length > 0) memcpy(images->bytes, bytes, length);
    images->length = length;
    return images;
}

/// qpdf reads the file when a page's images are first asked for: a born-digital PDF never needs it.
static int ready(PDFImages *images) {
    if (images->state == 0) {
        images->qpdf = qpdf_init();
        qpdf_silence_errors(images->qpdf);
        qpdf_set_suppress_warnings(images->qpdf, QPDF_TRUE);
        // Resources a page inherits from the page tree are copied onto the page, so each page's are its own.
        int failed = (qpdf_read_memory(images->qpdf, "pdf", (const char *)images->bytes, images->length, "") & QPDF_ERRORS)
            || (qpdf_push_inherited_attributes_to_page(images->qpdf) & QPDF_ERRORS);
        images->state = failed ? -1 : 1;
    }
    return images->state == 1;
}

qpdf_data PDFImages_ready(PDFImages *images) {
    return images != NULL && ready(images) ? images->qpdf : NULL;
}

void PDFImages_close(PDFImages *images) {
    if (images == NULL) return;
    if (images->qpdf != NULL) qpdf_cleanup(&images->qpdf);
    free(images->bytes);
    free(images);
}

static int positiveInt(qpdf_data qpdf, qpdf_oh dict, const char *key) {
    qpdf_oh value = qpdf_oh_get_key(qpdf, dict, key);
    if (!qpdf_oh_is_integer(qpdf, value)) return 0;
    long long n = qpdf_oh_get_int_value(qpdf, value);
    return n > 0 && n <= 1000000 ? (int)n : 0;
}

/// An integer entry of a dictionary, `fallback` when it is missing.
static long long intOr(qpdf_data qpdf, qpdf_oh dict, const char *key, long long fallback) {
    qpdf_oh value = qpdf_oh_get_key(qpdf, dict, key);
    return qpdf_oh_is_integer(qpdf, value) ? qpdf_oh_get_int_value(qpdf, value) : fallback;
}

/// A boolean entry of a dictionary, false when it is missing.
static int flag(qpdf_data qpdf, qpdf_oh dict, const char *key) {
    qpdf_oh value = qpdf_oh_get_key(qpdf, dict, key);
    return qpdf_oh_is_bool(qpdf, value) && qpdf_oh_get_bool_value(qpdf, value);
}

/// An entry of a dictionary whose value may also be a one-element array (as /Filter and /DecodeParms are).
static qpdf_oh single(qpdf_data qpdf, qpdf_oh dict, const char *key, int *ok) {
    qpdf_oh value = qpdf_oh_get_key(qpdf, dict, key);
    if (qpdf_oh_is_array(qpdf, value)) {
        if (qpdf_oh_get_array_n_items(qpdf, value) != 1) { *ok = 0; return value; }
        value = qpdf_oh_get_array_item(qpdf, value, 0);
    }
    *ok = 1;
    return value;
}

/// The number of colour components of a /DeviceGray, /DeviceRGB or [/ICCBased stream] colour space; else 0.
static int componentsOf(qpdf_data qpdf, qpdf_oh space) {
    if (qpdf_oh_is_name_and_equals(qpdf, space, "/DeviceGray")) return 1;
    if (qpdf_oh_is_name_and_equals(qpdf, space, "/DeviceRGB")) return 3;
    if (qpdf_oh_is_array(qpdf, space) && qpdf_oh_get_array_n_items(qpdf, space) == 2
        && qpdf_oh_is_name_and_equals(qpdf, qpdf_oh_get_array_item(qpdf, space, 0), "/ICCBased")) {
        qpdf_oh profile = qpdf_oh_get_array_item(qpdf, space, 1);
        if (!qpdf_oh_is_stream(qpdf, profile)) return 0;
        long long n = intOr(qpdf, qpdf_oh_get_dict(qpdf, profile), "/N", 0);
        return n == 1 || n == 3 ? (int)n : 0;
    }
    return 0;
}

static int kindOf(qpdf_data qpdf, qpdf_oh dict) {
    if (!qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/Decode"))
        || !qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/SMask"))
        || !qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/Mask"))
        || flag(qpdf, dict, "/ImageMask")) return PDFImageOther;
    int ok;
    qpdf_oh filter = single(qpdf, dict, "/Filter", &ok);
    if (!ok) return PDFImageOther;
    // A JPEG of gray or RGB only: poppler also undoes the inverted CMYK that Adobe software writes, and applies a
    // /ColorTransform from /DecodeParms; the image loader would do neither.
    if (qpdf_oh_is_name_and_equals(qpdf, filter, "/DCTDecode")) {
        int components = componentsOf(qpdf, qpdf_oh_get_key(qpdf, dict, "/ColorSpace"));
        return (components == 1 || components == 3) && qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/DecodeParms"))
            ? PDFImageJPEG : PDFImageOther;
    }
    if (qpdf_oh_is_name_and_equals(qpdf, filter, "/CCITTFaxDecode")
        && positiveInt(qpdf, dict, "/BitsPerComponent") == 1) return PDFImageCCITT;
    if (qpdf_oh_is_name_and_equals(qpdf, filter, "/FlateDecode")) {
        int bits = positiveInt(qpdf, dict, "/BitsPerComponent");
        qpdf_oh space = qpdf_oh_get_key(qpdf, dict, "/ColorSpace");
        if ((qpdf_oh_is_name_and_equals(qpdf, space, "/DeviceGray") && (bits == 1 || bits == 8))
            || (qpdf_oh_is_name_and_equals(qpdf, space, "/DeviceRGB") && bits == 8)) return PDFImageFlate;
    }
    return PDFImageOther;
}

/// The page's largest image stream and its facts; 0 when there is none.
static qpdf_oh largest(PDFImages *images, int index, PDFImageInfo *info) {
    memset(info, 0, sizeof *info);
    if (!ready(images)) return 0;
    qpdf_data qpdf = images->qpdf;
    int pages = qpdf_get_num_pages(qpdf);
    if (qpdf_has_error(qpdf) || index < 0 || index >= pages) { (void)qpdf_get_error(qpdf); return 0; }
    qpdf_oh page = qpdf_get_page_n(qpdf, (size_t)index);
    qpdf_oh xobjects = qpdf_oh_get_key(qpdf, qpdf_oh_get_key(qpdf, page, "/Resources"), "/XObject");
    if (qpdf_has_error(qpdf) || !qpdf_oh_is_dictionary(qpdf, xobjects)) { (void)qpdf_get_error(qpdf); return 0; }
    qpdf_oh best = 0;
    long long bestPixels = 0;
    qpdf_oh_begin_dict_key_iter(qpdf, xobjects);
    while (qpdf_oh_dict_more_keys(qpdf)) {
        qpdf_oh item = qpdf_oh_get_key(qpdf, xobjects, qpdf_oh_dict_next_key(qpdf));
        if (!qpdf_oh_is_stream(qpdf, item)) continue;
        qpdf_oh dict = qpdf_oh_get_dict(qpdf, item);
        if (!qpdf_oh_is_name_and_equals(qpdf, qpdf_oh_get_key(qpdf, dict, "/Subtype"), "/Image")) continue;
        int width = positiveInt(qpdf, dict, "/Width"), height = positiveInt(qpdf, dict, "/Height");
        if ((long long)width * height > bestPixels) {
            bestPixels = (long long)width * height;
            best = item;
            info->width = width;
            info->height = height;
            info->kind = kindOf(qpdf, dict);
        }
    }
    if (qpdf_has_error(qpdf)) { (void)qpdf_get_error(qpdf); memset(info, 0, sizeof *info); return 0; }
    return best;
}

int PDFImages_largest(PDFImages *images, int index, PDFImageInfo *info) {
    if (images == NULL || info == NULL) return 0;
    return largest(images, index, info) != 0;
}

/// A stream's bytes as stored (qpdf_dl_none: for DCTDecode alone, a JPEG file), malloc'd; NULL on an error.
static unsigned char *storedBytes(qpdf_data qpdf, qpdf_oh stream, size_t *length) {
    unsigned char *data = NULL;
    *length = 0;
    if (qpdf_oh_get_stream_data(qpdf, stream, qpdf_dl_none, NULL, &data, length) & QPDF_ERRORS) {
        (void)qpdf_get_error(qpdf);
        free(data);
        *length = 0;
        return NULL;
    }
    return data;
}

static void put16(unsigned char *p, unsigned v) { p[0] = v & 0xFF; p[1] = (v >> 8) & 0xFF; }
static void put32(unsigned char *p, unsigned v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }

/// CCITT fax data of a `width` × `height` image as a little-endian TIFF of one strip. The PDF's /DecodeParms
/// say how it is coded: /K < 0 Group 4, else Group 3 (2-D when /K > 0), /EncodedByteAlign, and /BlackIs1
/// (black runs decode to 1 bits, which a PDF then shows as white: TIFF's "black is zero").
static unsigned char *ccittTIFF(qpdf_data qpdf, qpdf_oh dict, int width, int height,
                                const unsigned char *data, size_t length, size_t *tiffLength) {
    int ok;
    qpdf_oh parms = single(qpdf, dict, "/DecodeParms", &ok);
    if (!ok) return NULL;
    long long k = 0, columns = 1728;
    int blackIs1 = 0, byteAlign = 0;
    if (qpdf_oh_is_dictionary(qpdf, parms)) {
        k = intOr(qpdf, parms, "/K", 0);
        columns = intOr(qpdf, parms, "/Columns", 1728);
        blackIs1 = flag(qpdf, parms, "/BlackIs1");
        byteAlign = flag(qpdf, parms, "/EncodedByteAlign");
    }
    if (columns != width || length > 0xFFFFFFF0u) return NULL;
    enum { entries = 11 };
    size_t header = 8 + 2 + entries * 12 + 4;
    unsigned char *tiff = calloc(1, header + length);
    if (tiff == NULL) return NULL;
    memcpy(tiff, "II*\0", 4);
    put32(tiff + 4, 8);
    put16(tiff + 8, entries);
    unsigned char *e = tiff + 10;
    // Tags in ascending order: tag, type (3 SHORT, 4 LONG), count 1, value.
    unsigned tags[entries][3] = {
        {256, 4, (unsigned)width}, {257, 4, (unsigned)height}, {258, 3, 1},
        {259, 3, k < 0 ? 4 : 3},                 // compression: CCITT Group 4 or Group 3
        {262, 3, blackIs1 ? 1 : 0},              // photometric: black is zero, or white is zero
        {273, 4, (unsigned)header},              // strip offset
        {277, 3, 1}, {278, 4, (unsigned)height}, {279, 4, (unsigned)length},
        {292, 4, (k > 0 ? 1u : 0u) | (byteAlign ? 4u : 0u)},  // T4 options: 2-D coding, fill bits
        {293, 4, 0},                             // T6 options
    };
    for (int i = 0; i < entries; i++, e += 12) {
        put16(e, tags[i][0]);
        put16(e + 2, tags[i][1]);
        put32(e + 4, 1);
        if (tags[i][1] == 3) put16(e + 8, tags[i][2]); else put32(e + 8, tags[i][2]);
    }
    put32(e, 0);
    memcpy(tiff + header, data, length);
    *tiffLength = header + length;
    return tiff;
}

unsigned char *PDFImages_largestFile(PDFImages *images, int index, size_t *length) {
    PDFImageInfo info;
    *length = 0;
    if (images == NULL) return NULL;
    qpdf_oh image = largest(images, index, &info);
    if (image == 0 || info.kind == PDFImageOther) return NULL;
    size_t stored = 0;
    unsigned char *data = storedBytes(images->qpdf, image, &stored);
    if (data == NULL) return NULL;
    if (info.kind == PDFImageJPEG) {
        *length = stored;
        return data;
    }
    unsigned char *tiff = ccittTIFF(images->qpdf, qpdf_oh_get_dict(images->qpdf, image), info.width, info.height,
                                    data, stored, length);
    free(data);
    if (qpdf_has_error(images->qpdf)) { (void)qpdf_get_error(images->qpdf); free(tiff); *length = 0; return NULL; }
    return tiff;
}

static int paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/// Flate data decoded one row at a time straight into the image, so neither the inflated data nor a 4-byte
/// surface is ever whole in memory, and no more is inflated than the stated size needs (a small stream that
/// inflates to gigabytes stops there). PNG predictors (/Predictor 10–15) are undone row by row.
void *PDFImages_largestPix(PDFImages *images, int index) {
    PDFImageInfo info;
    if (images == NULL) return NULL;
    qpdf_oh image = largest(images, index, &info);
    if (image == 0 || info.kind != PDFImageFlate) return NULL;
    qpdf_data qpdf = images->qpdf;
    qpdf_oh dict = qpdf_oh_get_dict(qpdf, image);
    int bits = positiveInt(qpdf, dict, "/BitsPerComponent");
    int colors = qpdf_oh_is_name_and_equals(qpdf, qpdf_oh_get_key(qpdf, dict, "/ColorSpace"), "/DeviceRGB") ? 3 : 1;
    int ok, predictor = 1;
    qpdf_oh parms = single(qpdf, dict, "/DecodeParms", &ok);
    if (!ok) return NULL;
    if (qpdf_oh_is_dictionary(qpdf, parms)) {
        predictor = (int)intOr(qpdf, parms, "/Predictor", 1);
        if (predictor >= 10 && (intOr(qpdf, parms, "/Colors", 1) != colors || intOr(qpdf, parms, "/BitsPerComponent", 8) != bits
                                || intOr(qpdf, parms, "/Columns", 1) != info.width)) return NULL;
    }
    if (predictor != 1 && (predictor < 10 || predictor > 15)) return NULL;  // the TIFF predictor is left to poppler
    int filtered = predictor >= 10;
    size_t rowBytes = ((size_t)info.width * colors * bits + 7) / 8, bpp = colors * bits >= 8 ? (size_t)colors * bits / 8 : 1;
    size_t length = 0;
    unsigned char *data = storedBytes(qpdf, image, &length);
    if (data == NULL) return NULL;
    unsigned char *row = calloc(2 * (rowBytes + 1), 1);
    PIX *pix = pixCreate(info.width, info.height, bits == 1 ? 1 : 8);
    z_stream z;
    memset(&z, 0, sizeof z);
    int fine = row != NULL && pix != NULL && inflateInit(&z) == Z_OK;
    unsigned char *cur = row, *prev = row + rowBytes + 1;  // each: the filter byte, then the row
    z.next_in = data;
    z.avail_in = (uInt)(length < UINT32_MAX ? length : UINT32_MAX);
    for (int y = 0; fine && y < info.height; y++) {
        z.next_out = filtered ? cur : cur + 1;
        z.avail_out = (uInt)(rowBytes + (size_t)filtered);
        while (z.avail_out > 0) {
            int r = inflate(&z, Z_NO_FLUSH);
            if (r == Z_STREAM_END && z.avail_out > 0) { fine = 0; break; }  // shorter than stated
            if (r != Z_OK && r != Z_STREAM_END) { fine = 0; break; }
        }
        if (!fine) break;
        unsigned char *c = cur + 1, *p = prev + 1;
        if (filtered) {
            switch (cur[0]) {
            case 0: break;
            case 1: for (size_t i = bpp; i < rowBytes; i++) c[i] += c[i - bpp]; break;
            case 2: for (size_t i = 0; i < rowBytes; i++) c[i] += p[i]; break;
            case 3: for (size_t i = 0; i < rowBytes; i++) c[i] += ((i >= bpp ? c[i - bpp] : 0) + p[i]) / 2; break;
            case 4: for (size_t i = 0; i < rowBytes; i++) c[i] += paeth(i >= bpp ? c[i - bpp] : 0, p[i], i >= bpp ? p[i - bpp] : 0); break;
            default: fine = 0; continue;
            }
        }
        l_uint32 *line = pixGetData(pix) + (size_t)y * pixGetWpl(pix);
        unsigned char *out = (unsigned char *)line;
        if (colors == 3) {
            for (int x = 0; x < info.width; x++)
                out[x] = (unsigned char)((c[3 * x] * 299 + c[3 * x + 1] * 587 + c[3 * x + 2] * 114) / 1000);
        } else {
            memcpy(out, c, rowBytes);
        }
        // Leptonica keeps pixels big-endian within 32-bit words.
        for (l_int32 i = 0; i < pixGetWpl(pix); i++) line[i] = __builtin_bswap32(line[i]);
        unsigned char *t = cur; cur = prev; prev = t;
    }
    if (row != NULL && pix != NULL) inflateEnd(&z);
    free(row);
    free(data);
    if (!fine) { pixDestroy(&pix); return NULL; }
    if (bits == 1) pixInvert(pix, pix);  // PDF gray: 1 is white; leptonica: 1 is black
    return pix;
}
