// Leptonica reads a colour JPEG into 4 bytes a pixel (`pixReadMem`), which Shoebox then turns gray
// (`pixConvertTo8`: 0.3 R + 0.5 G + 0.2 B): two passes over a page four times the size of the gray one, and
// its page faults. This file decodes a JPEG with libjpeg a scanline at a time and turns each scanline gray
// with leptonica's own arithmetic (`pixConvertRGBToGray` with its default weights), straight into an 8-bit
// leptonica image: the same pixels, the same resolution from the JFIF header, without the colour page in
// between. Gray JPEGs are copied as they are. Anything else (CMYK, a decoding error) returns NULL, and the
// caller goes on to leptonica's own reader.
#pragma STDC FP_CONTRACT OFF
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <leptonica/allheaders.h>
#include "GrayJPEG.h"

struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void fail(j_common_ptr cinfo) { longjmp(((struct failure *)cinfo->err)->jump, 1); }
static void quiet(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }  // warnings: read on, as leptonica does

void *GrayJPEG_read(const unsigned char *data, size_t size) {
    if (data == NULL || size == 0) return NULL;
    struct jpeg_decompress_struct cinfo;
    struct failure failure;
    PIX *volatile pix = NULL;
    JSAMPLE *volatile row = NULL;
    cinfo.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = fail;
    failure.manager.emit_message = quiet;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&cinfo);
        pixDestroy((PIX **)&pix);
        free(row);
        return NULL;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    int color = cinfo.num_components == 3 && (cinfo.jpeg_color_space == JCS_YCbCr || cinfo.jpeg_color_space == JCS_RGB);
    if (!color && !(cinfo.num_components == 1 && cinfo.jpeg_color_space == JCS_GRAYSCALE)) {
        jpeg_destroy_decompress(&cinfo);
        return NULL;
    }
    cinfo.out_color_space = color ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    l_int32 width = (l_int32)cinfo.output_width, height = (l_int32)cinfo.output_height;
    if (width <= 0 || height <= 0 || (int)cinfo.output_components != (color ? 3 : 1)) longjmp(failure.jump, 1);
    pix = pixCreateNoInit(width, height, 8);
    row = malloc((size_t)width * (color ? 3 : 1));
    if (pix == NULL || row == NULL) longjmp(failure.jump, 1);
    // pixConvertRGBToGray's default weights and expression (float products, then + 0.5 in double, truncated).
    const l_float32 rwt = L_RED_WEIGHT, gwt = L_GREEN_WEIGHT, bwt = L_BLUE_WEIGHT;
    l_uint32 *lines = pixGetData(pix);
    l_int32 wpl = pixGetWpl(pix);
    while (cinfo.output_scanline < cinfo.output_height) {
        l_int32 y = (l_int32)cinfo.output_scanline;
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) longjmp(failure.jump, 1);
        l_uint32 *line = lines + (size_t)y * (size_t)wpl;
        line[wpl - 1] = 0;
        for (l_int32 x = 0; x < width; x++) {
            l_int32 value = color ? (l_int32)(rwt * row[3 * x] + gwt * row[3 * x + 1] + bwt * row[3 * x + 2] + 0.5) : row[x];
            SET_DATA_BYTE(line, x, value);
        }
    }
    if (cinfo.density_unit == 1) {
        pixSetResolution(pix, cinfo.X_density, cinfo.Y_density);
    } else if (cinfo.density_unit == 2) {
        pixSetResolution(pix, (l_int32)((l_float32)cinfo.X_density * 2.54 + 0.5), (l_int32)((l_float32)cinfo.Y_density * 2.54 + 0.5));
    }
    pixSetInputFormat(pix, IFF_JFIF_JPEG);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return pix;
}
