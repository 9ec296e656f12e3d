// Poppler-glib hands out a page's image only decoded, as a cairo surface of 4 bytes a pixel (two of them for a
// moment), and cairo rendering decodes it whole as well: a 600-dpi A4 scan in a PDF (35 megapixels) took
// 2 × 132 MB, and a PDF holding a 20000 × 20000 image would take 3.2 GB before any size limit could look at
// it. Poppler-glib does not tell an image's size without decoding it.
//
// qpdf reads the page's image dictionaries instead: its /Width and /Height, and for a JPEG (DCTDecode) the
// stored bytes, which Shoebox's image loader decodes like a JPEG file (at 1/2–1/8 by libjpeg when large, to
// its luminance). Only images in the page's own resources are seen (not those inside form XObjects); for
// everything qpdf cannot tell, poppler goes on as before.
#include <stdlib.h>
#include <string.h>
#include <qpdf/qpdf-c.h>
#include "PDFImages.h"

struct PDFImages {
    qpdf_data qpdf;
    unsigned char *bytes;
};

PDFImages *PDFImages_open(const unsigned char *bytes, size_t length) {
    PDFImages *images = calloc(1, sizeof *images);
    if (images == NULL) return NULL;
    images->bytes = malloc(length > 0 ? length : 1);
    images->qpdf = qpdf_init();
    if (images->bytes == NULL || images->qpdf == NULL) { PDFImages_close(images); return NULL; }
    memcpy(images->bytes, bytes, length);
    qpdf_silence_errors(images->qpdf);
    qpdf_set_suppress_warnings(images->qpdf, QPDF_TRUE);
    // Resources a page inherits from the page tree are copied onto the page, so each page's are its own.
    if ((qpdf_read_memory(images->qpdf, "pdf", (const char *)images->bytes, length, "") & QPDF_ERRORS)
        || (qpdf_push_inherited_attributes_to_page(images->qpdf) & QPDF_ERRORS)) {
        PDFImages_close(images);
        return NULL;
    }
    return images;
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

static int onlyDCT(qpdf_data qpdf, qpdf_oh dict) {
    qpdf_oh filter = qpdf_oh_get_key(qpdf, dict, "/Filter");
    if (qpdf_oh_is_array(qpdf, filter)) {
        if (qpdf_oh_get_array_n_items(qpdf, filter) != 1) return 0;
        filter = qpdf_oh_get_array_item(qpdf, filter, 0);
    }
    return qpdf_oh_is_name_and_equals(qpdf, filter, "/DCTDecode")
        && qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/Decode"))
        && qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/SMask"))
        && qpdf_oh_is_null(qpdf, qpdf_oh_get_key(qpdf, dict, "/Mask"));
}

/// The page's largest image stream and its facts; 0 when there is none.
static qpdf_oh largest(PDFImages *images, int index, PDFImageInfo *info) {
    qpdf_data qpdf = images->qpdf;
    memset(info, 0, sizeof *info);
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
            info->isJPEG = onlyDCT(qpdf, dict);
        }
    }
    if (qpdf_has_error(qpdf)) { (void)qpdf_get_error(qpdf); memset(info, 0, sizeof *info); return 0; }
    return best;
}

int PDFImages_largest(PDFImages *images, int index, PDFImageInfo *info) {
    if (images == NULL || info == NULL) return 0;
    return largest(images, index, info) != 0;
}

unsigned char *PDFImages_largestData(PDFImages *images, int index, size_t *length) {
    PDFImageInfo info;
    *length = 0;
    if (images == NULL) return NULL;
    qpdf_oh image = largest(images, index, &info);
    if (image == 0) return NULL;
    unsigned char *data = NULL;
    // qpdf_dl_none: the stream's bytes as stored, which for DCTDecode alone are a JPEG file.
    if (qpdf_oh_get_stream_data(images->qpdf, image, qpdf_dl_none, NULL, &data, length) & QPDF_ERRORS) {
        (void)qpdf_get_error(images->qpdf);
        free(data);
        *length = 0;
        return NULL;
    }
    return data;
}
