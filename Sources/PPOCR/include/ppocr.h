#ifndef SHOEBOX_PPOCR_H
#define SHOEBOX_PPOCR_H
// PP-OCR text-line recognition on ONNX Runtime's C API, for Shoebox's second reader (ppocr.c says how).
// The library is opened with dlopen by full path: nothing links against it, and without it Shoebox runs on
// tesseract alone. No ONNX Runtime header is needed: the few entry points used are declared in ppocr.c.
#include <stddef.h>
#include <stdint.h>

typedef struct ppocr_reader ppocr_reader;

/// Opens ONNX Runtime (`library_path`, dlopen'd once per process) and a PP-OCR recognition model given as its
/// bytes (`model_size` of them at `model`, which may be freed once this returns; the caller read them from a file it
/// checked). One intra-op thread: callers run one line at a time per worker thread, and several threads may read
/// with one reader at once. NULL on failure, with a sentence in `error`.
ppocr_reader *ppocr_open(const char *library_path, const void *model, size_t model_size, char *error, size_t error_size);
void ppocr_close(ppocr_reader *reader);

/// ONNX Runtime's version string ("1.32.0"), once a reader was opened; "" before.
const char *ppocr_runtime_version(void);

/// The number of output classes (blank at 0, the model's characters, a space last) and one class's UTF-8 text.
int ppocr_class_count(const ppocr_reader *reader);
const char *ppocr_class_text(const ppocr_reader *reader, int index);

/// One emitted character of a line: its class, the output frame it was read at (a frame is 8 columns of the
/// line scaled to 48 rows high), and its probability.
typedef struct {
    int32_t klass;
    int32_t frame;
    float probability;
} ppocr_glyph;

/// Reads one text line: `width` × `height` gray pixels (0 black, 255 white), `stride` bytes per row. Scaled to
/// 48 rows, at least 320 columns (padded), as the model was trained. Greedy CTC: the frame's best class, repeats
/// and blanks dropped. Writes at most `capacity` glyphs and returns how many there are (more than `capacity`
/// means some were dropped), -1 on failure with a sentence in `error`. `scaled_width`: the line's width once scaled.
int ppocr_read_line(
    ppocr_reader *reader, const uint8_t *gray, int width, int height, int stride, ppocr_glyph *glyphs, int capacity,
    int *scaled_width, char *error, size_t error_size);

/// Text-line detection with a PP-OCR DB model (ch_PP-OCRv4_det_infer.onnx, which Shoebox runs folded). Opened as `ppocr_open` opens a reader
/// (same runtime, same session options); several threads may detect with one detector at once.
typedef struct ppocr_detector ppocr_detector;

ppocr_detector *ppocr_open_detector(const char *library_path, const void *model, size_t model_size, char *error, size_t error_size);
void ppocr_close_detector(ppocr_detector *detector);

/// One detected text line: an axis-aligned box in page pixels (right and bottom exclusive, within the page) and
/// its score, the mean text probability inside it (0.5 to 1).
typedef struct {
    int32_t left, top, right, bottom;
    float score;
} ppocr_box;

/// The most boxes `ppocr_detect` finds on one page: components past it are not looked at.
#define PPOCR_MAX_BOXES 4096
/// The largest model input side, whatever `max_side` asks: memory grows with its square (one run adds about 150 MB
/// to the process's peak at 960, about 260 MB at 1280; rapidocr's own sizing, 2016, about 900 MB).
#define PPOCR_DET_MAX_SIDE 1280

/// Finds the text lines of a page: `width` x `height` gray pixels (0 black, 255 white), `stride` bytes per row.
/// The page is scaled (bilinear) so its long side is at most `max_side` (960 is what the memory budget allows;
/// kept within [32, PPOCR_DET_MAX_SIDE]; never enlarged), each side a multiple of 32. The probability map is
/// binarised at 0.3, dilated 2x2, split into 8-connected components; a component at least 3 map pixels on its
/// shorter side whose box has a mean probability of 0.5 or more is a line, its box grown on every side by
/// area x 1.6 / perimeter (rapidocr's unclip). Writes at most `capacity` boxes in reading order (top to bottom;
/// boxes whose tops are above a row's first box's middle are in its row, left to right), and returns how many there are (more than `capacity` means some were dropped), -1 on failure with a
/// sentence in `error`.
int ppocr_detect(
    ppocr_detector *detector, const uint8_t *gray, int width, int height, int stride, int max_side, ppocr_box *boxes, int capacity,
    char *error, size_t error_size);

#endif
