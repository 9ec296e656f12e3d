// PP-OCR text-line recognition through ONNX Runtime's C API (ppocr.h).
//
// ONNX Runtime's C API is one exported function, OrtGetApiBase, which hands out a table of function pointers
// (OrtApi). The table is append-only across 1.x releases, so its slots keep their indices: the ones used here are
// named below, from include/onnxruntime/core/session/onnxruntime_c_api.h, all present since API version 1.
// Pre- and post-processing follow PaddleOCR's recognizer as rapidocr-onnxruntime 1.4.4 runs it: gray scaled to
// height 48 (bilinear, half-pixel centres), at least 320 wide, padded with 0 after (x/255 - 0.5)/0.5, three
// identical planes; output [1, frames, classes] softmax; class 0 is the CTC blank, the last class a space.
#include "ppocr.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtValue OrtValue;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtModelMetadata OrtModelMetadata;
typedef struct OrtAllocator OrtAllocator;
typedef void (*ort_fn)(void);

typedef struct {
    const ort_fn *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

enum {
    GetErrorMessage = 2,
    CreateEnv = 3,
    DisableTelemetryEvents = 6,
    CreateSession = 7,
    CreateSessionFromArray = 8,
    Run = 9,
    CreateSessionOptions = 10,
    DisableMemPattern = 17,
    DisableCpuMemArena = 19,
    SetSessionGraphOptimizationLevel = 23,
    SetIntraOpNumThreads = 24,
    SetInterOpNumThreads = 25,
    SessionGetInputName = 36,
    SessionGetOutputName = 37,
    CreateTensorWithDataAsOrtValue = 49,
    GetTensorMutableData = 51,
    GetDimensionsCount = 61,
    GetDimensions = 62,
    GetTensorTypeAndShape = 65,
    CreateCpuMemoryInfo = 69,
    AllocatorFree = 76,
    GetAllocatorWithDefaultOptions = 78,
    ReleaseStatus = 93,
    ReleaseMemoryInfo = 94,
    ReleaseSession = 95,
    ReleaseValue = 96,
    ReleaseTensorTypeAndShapeInfo = 99,
    ReleaseSessionOptions = 100,
    SessionGetModelMetadata = 111,
    ModelMetadataLookupCustomMetadataMap = 116,
    ReleaseModelMetadata = 118,
};

// The API version asked for: any version up to the library's own returns the same (append-only) table.
#define API_VERSION 14
#define LOG_ERROR 3
#define ENABLE_ALL 99
#define FLOAT_TENSOR 1
#define HEIGHT 48
#define MIN_WIDTH 320
// A line wider than this (after scaling to 48 rows) is squeezed to it: 100 characters' worth, bounded memory.
#define MAX_WIDTH 2400

static const ort_fn *api;
static const char *runtime_version = "";
static OrtEnv *env;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

#define ORT(slot, type) ((type)api[slot])

struct ppocr_reader {
    OrtSession *session;
    OrtMemoryInfo *memory;
    char *input_name, *output_name;
    char *characters;  // the metadata string, split in place
    const char **classes;
    int class_count;
};

static void say(char *error, size_t size, const char *what, const char *detail) {
    if (error && size) snprintf(error, size, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

// True when `status` is an error; its message goes to `error` and the status is released.
static int failed(OrtStatus *status, const char *what, char *error, size_t size) {
    if (!status) return 0;
    say(error, size, what, ORT(GetErrorMessage, const char *(*)(const OrtStatus *))(status));
    ORT(ReleaseStatus, void (*)(OrtStatus *))(status);
    return 1;
}

static int load_runtime(const char *library_path, char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    int ok = 1;
    if (!api) {
        // The PyPI build of ONNX Runtime sends usage events to Microsoft (mobile.events.data.microsoft.com, seen
        // with strace) from threads of its own unless ORT_DISABLE_TELEMETRY is set when it starts, and
        // DisableTelemetryEvents below does not stop them alone. Shoebox never touches the network. The shoebox
        // binary sets the variable while it has one thread (main.swift); here it is set for other hosts (tests).
        const char *off = getenv("ORT_DISABLE_TELEMETRY");
        if (!off || strcmp(off, "1") != 0) setenv("ORT_DISABLE_TELEMETRY", "1", 1);
        void *library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
        const OrtApiBase *(*get_base)(void) = library ? (const OrtApiBase *(*)(void))dlsym(library, "OrtGetApiBase") : NULL;
        const OrtApiBase *base = get_base ? get_base() : NULL;
        const ort_fn *table = base ? base->GetApi(API_VERSION) : NULL;
        if (!library) {
            say(error, size, "cannot load ONNX Runtime", dlerror());
            ok = 0;
        } else if (!table) {
            say(error, size, "not an ONNX Runtime library with C API version 14 or later", library_path);
            ok = 0;
        } else {
            api = table;
            runtime_version = base->GetVersionString();
            if (failed(ORT(CreateEnv, OrtStatus * (*)(int, const char *, OrtEnv **))(LOG_ERROR, "shoebox", &env), "ONNX Runtime environment", error, size)) {
                api = NULL;
                ok = 0;
            } else if (failed(ORT(DisableTelemetryEvents, OrtStatus * (*)(const OrtEnv *))(env), "turning ONNX Runtime's telemetry off", error, size)) {
                // The PyPI build sends usage events to Microsoft (mobile.events.data.microsoft.com, seen with strace)
                // unless told not to: Shoebox never touches the network, so no telemetry, no reader.
                api = NULL;
                ok = 0;
            }
        }
    }
    pthread_mutex_unlock(&load_lock);
    return ok;
}

const char *ppocr_runtime_version(void) { return runtime_version; }

static int load_classes(ppocr_reader *r, char *error, size_t size) {
    OrtAllocator *allocator;
    OrtModelMetadata *metadata;
    char *value = NULL;
    if (failed(ORT(GetAllocatorWithDefaultOptions, OrtStatus * (*)(OrtAllocator **))(&allocator), "allocator", error, size)) return 0;
    if (failed(ORT(SessionGetModelMetadata, OrtStatus * (*)(OrtSession *, OrtModelMetadata **))(r->session, &metadata), "model metadata", error, size))
        return 0;
    OrtStatus *status = ORT(ModelMetadataLookupCustomMetadataMap, OrtStatus * (*)(OrtModelMetadata *, OrtAllocator *, const char *, char **))(
        metadata, allocator, "character", &value);
    ORT(ReleaseModelMetadata, void (*)(OrtModelMetadata *))(metadata);
    if (failed(status, "model metadata", error, size)) return 0;
    if (!value) {
        say(error, size, "the model has no 'character' list in its metadata: not a PP-OCR recognition model", NULL);
        return 0;
    }
    r->characters = strdup(value);
    ORT(AllocatorFree, OrtStatus * (*)(OrtAllocator *, void *))(allocator, value);
    if (!r->characters) return 0;
    int lines = 1;
    for (const char *p = r->characters; *p; p++) lines += *p == '\n';
    r->classes = calloc((size_t)lines + 2, sizeof *r->classes);
    if (!r->classes) return 0;
    r->classes[r->class_count++] = "";  // the CTC blank
    char *start = r->characters;
    for (char *p = r->characters;; p++) {
        if (*p == '\n' || *p == 0) {
            int end = *p == 0;
            *p = 0;
            if (!(end && *start == 0)) r->classes[r->class_count++] = start;
            if (end) break;
            start = p + 1;
        }
    }
    r->classes[r->class_count++] = " ";
    return 1;
}

static char *io_name(OrtSession *session, int output, char *error, size_t size) {
    OrtAllocator *allocator;
    char *name = NULL, *copy = NULL;
    if (failed(ORT(GetAllocatorWithDefaultOptions, OrtStatus * (*)(OrtAllocator **))(&allocator), "allocator", error, size)) return NULL;
    OrtStatus *status = output
        ? ORT(SessionGetOutputName, OrtStatus * (*)(OrtSession *, size_t, OrtAllocator *, char **))(session, 0, allocator, &name)
        : ORT(SessionGetInputName, OrtStatus * (*)(OrtSession *, size_t, OrtAllocator *, char **))(session, 0, allocator, &name);
    if (failed(status, "model inputs", error, size)) return NULL;
    copy = strdup(name);
    ORT(AllocatorFree, OrtStatus * (*)(OrtAllocator *, void *))(allocator, name);
    return copy;
}

// A session with Shoebox's options over the model's bytes (read by the caller from the file it checked, so that
// ONNX Runtime never opens a path), or NULL with a sentence in `error` (`what` names the model in it).
static OrtSession *open_session(const void *model, size_t model_size, const char *what, char *error, size_t size) {
    OrtSessionOptions *options = NULL;
    OrtSession *session = NULL;
    int ok = !failed(ORT(CreateSessionOptions, OrtStatus * (*)(OrtSessionOptions **))(&options), "session options", error, size);
    // One thread inside ONNX Runtime: --jobs is the one knob for parallelism, as OMP_THREAD_LIMIT=1 is for tesseract.
    ok = ok && !failed(ORT(SetIntraOpNumThreads, OrtStatus * (*)(OrtSessionOptions *, int))(options, 1), "session options", error, size);
    ok = ok && !failed(ORT(SetInterOpNumThreads, OrtStatus * (*)(OrtSessionOptions *, int))(options, 1), "session options", error, size);
    // ONNX Runtime's memory arena stays on: without it every run maps and unmaps its buffers, and the page faults
    // cost twice the recognition's own time (measured: 2.6 s of system time on one receipt). Memory patterns are
    // off: each line has its own width.
    ok = ok && !failed(ORT(DisableMemPattern, OrtStatus * (*)(OrtSessionOptions *))(options), "session options", error, size);
    ok = ok && !failed(ORT(SetSessionGraphOptimizationLevel, OrtStatus * (*)(OrtSessionOptions *, int))(options, ENABLE_ALL), "session options", error, size);
    ok = ok && !failed(ORT(CreateSessionFromArray, OrtStatus * (*)(OrtEnv *, const void *, size_t, OrtSessionOptions *, OrtSession **))(
                           env, model, model_size, options, &session),
                 what, error, size);
    if (options) ORT(ReleaseSessionOptions, void (*)(OrtSessionOptions *))(options);
    return ok ? session : NULL;
}

ppocr_reader *ppocr_open(const char *library_path, const void *model, size_t model_size, char *error, size_t size) {
    if (!load_runtime(library_path, error, size)) return NULL;
    ppocr_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->session = open_session(model, model_size, "cannot load the recognition model", error, size);
    int ok = r->session != NULL;
    ok = ok && !failed(ORT(CreateCpuMemoryInfo, OrtStatus * (*)(int, int, OrtMemoryInfo **))(0, 0, &r->memory), "memory info", error, size);
    ok = ok && (r->input_name = io_name(r->session, 0, error, size)) && (r->output_name = io_name(r->session, 1, error, size));
    ok = ok && load_classes(r, error, size);
    if (!ok) {
        ppocr_close(r);
        return NULL;
    }
    return r;
}

void ppocr_close(ppocr_reader *r) {
    if (!r) return;
    if (r->session) ORT(ReleaseSession, void (*)(OrtSession *))(r->session);
    if (r->memory) ORT(ReleaseMemoryInfo, void (*)(OrtMemoryInfo *))(r->memory);
    free(r->input_name);
    free(r->output_name);
    free(r->classes);
    free(r->characters);
    free(r);
}

int ppocr_class_count(const ppocr_reader *r) { return r->class_count; }

const char *ppocr_class_text(const ppocr_reader *r, int index) { return index >= 0 && index < r->class_count ? r->classes[index] : ""; }

// Bilinear with half-pixel centres (cv2.resize's INTER_LINEAR), into `dst` (dw × dh, row stride `ds`), normalised.
static void scale_line(const uint8_t *src, int sw, int sh, int stride, float *dst, int dw, int dh, int ds) {
    float sx = (float)sw / dw, sy = (float)sh / dh;
    for (int y = 0; y < dh; y++) {
        float fy = (y + 0.5f) * sy - 0.5f;
        if (fy < 0) fy = 0;
        int y0 = (int)fy;
        if (y0 > sh - 1) y0 = sh - 1;
        int y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        float ay = fy - y0;
        const uint8_t *r0 = src + (size_t)y0 * stride, *r1 = src + (size_t)y1 * stride;
        for (int x = 0; x < dw; x++) {
            float fx = (x + 0.5f) * sx - 0.5f;
            if (fx < 0) fx = 0;
            int x0 = (int)fx;
            if (x0 > sw - 1) x0 = sw - 1;
            int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
            float ax = fx - x0;
            float v = (1 - ay) * ((1 - ax) * r0[x0] + ax * r0[x1]) + ay * ((1 - ax) * r1[x0] + ax * r1[x1]);
            dst[(size_t)y * ds + x] = (v / 255.0f - 0.5f) / 0.5f;
        }
    }
}

int ppocr_read_line(
    ppocr_reader *r, const uint8_t *gray, int width, int height, int stride, ppocr_glyph *glyphs, int capacity, int *scaled_width,
    char *error, size_t size) {
    if (!r || !gray || width <= 0 || height <= 0 || stride < width || width > 100000 || height > 100000) {
        say(error, size, "not a line image", NULL);
        return -1;
    }
    double ratio = (double)width / height;
    int content = (int)ceil(HEIGHT * ratio);
    if (content > MAX_WIDTH) content = MAX_WIDTH;
    if (content < 1) content = 1;
    int padded = content < MIN_WIDTH ? MIN_WIDTH : content;
    if (scaled_width) *scaled_width = content;
    size_t plane = (size_t)HEIGHT * padded;
    float *input = calloc(3 * plane, sizeof(float));  // 0 after normalisation: the padding
    if (!input) {
        say(error, size, "out of memory", NULL);
        return -1;
    }
    scale_line(gray, width, height, stride, input, content, HEIGHT, padded);
    memcpy(input + plane, input, plane * sizeof(float));
    memcpy(input + 2 * plane, input, plane * sizeof(float));
    int64_t shape[4] = {1, 3, HEIGHT, padded};
    OrtValue *tensor = NULL, *output = NULL;
    int count = -1;
    if (failed(ORT(CreateTensorWithDataAsOrtValue, OrtStatus * (*)(OrtMemoryInfo *, void *, size_t, const int64_t *, size_t, int, OrtValue **))(
                   r->memory, input, 3 * plane * sizeof(float), shape, 4, FLOAT_TENSOR, &tensor),
               "input tensor", error, size))
        goto done;
    const char *in_names[1] = {r->input_name}, *out_names[1] = {r->output_name};
    const OrtValue *ins[1] = {tensor};
    if (failed(ORT(Run, OrtStatus * (*)(OrtSession *, void *, const char *const *, const OrtValue *const *, size_t, const char *const *, size_t, OrtValue **))(
                   r->session, NULL, in_names, ins, 1, out_names, 1, &output),
               "recognition", error, size))
        goto done;
    OrtTensorTypeAndShapeInfo *info;
    size_t dims_count = 0;
    int64_t dims[3] = {0, 0, 0};
    if (failed(ORT(GetTensorTypeAndShape, OrtStatus * (*)(OrtValue *, OrtTensorTypeAndShapeInfo **))(output, &info), "output", error, size)) goto done;
    OrtStatus *status = ORT(GetDimensionsCount, OrtStatus * (*)(OrtTensorTypeAndShapeInfo *, size_t *))(info, &dims_count);
    if (!status && dims_count == 3) status = ORT(GetDimensions, OrtStatus * (*)(OrtTensorTypeAndShapeInfo *, int64_t *, size_t))(info, dims, 3);
    ORT(ReleaseTensorTypeAndShapeInfo, void (*)(OrtTensorTypeAndShapeInfo *))(info);
    if (failed(status, "output", error, size)) goto done;
    if (dims_count != 3 || dims[2] != r->class_count || dims[1] <= 0) {
        say(error, size, "the model's output does not match its character list", NULL);
        goto done;
    }
    float *probabilities;
    if (failed(ORT(GetTensorMutableData, OrtStatus * (*)(OrtValue *, void **))(output, (void **)&probabilities), "output", error, size)) goto done;
    int frames = (int)dims[1], classes = (int)dims[2], previous = -1;
    count = 0;
    for (int t = 0; t < frames; t++) {
        const float *p = probabilities + (size_t)t * classes;
        int best = 0;
        for (int c = 1; c < classes; c++)
            if (p[c] > p[best]) best = c;
        if (best != 0 && best != previous) {
            if (count < capacity) glyphs[count] = (ppocr_glyph){best, t, p[best]};
            count++;
        }
        previous = best;
    }
done:
    if (output) ORT(ReleaseValue, void (*)(OrtValue *))(output);
    if (tensor) ORT(ReleaseValue, void (*)(OrtValue *))(tensor);
    free(input);
    return count;
}

// Text-line detection: PP-OCR's DB model (ppocr.h), pre- and post-processing as rapidocr-onnxruntime 1.4.4's
// ch_ppocr_det (DBPostProcess with thresh 0.3, box_thresh 0.5, unclip_ratio 1.6, 2x2 dilation, score_mode fast),
// except that boxes are axis-aligned: the component's bounding box stands for cv2.minAreaRect, as receipts are
// deskewed before OCR.
#define DET_THRESH 0.3f
#define DET_BOX_THRESH 0.5
#define DET_UNCLIP_RATIO 1.6
// rapidocr's min_size: a component's shorter side (in map pixels, between pixel centres) must be at least this.
#define DET_MIN_SIZE 3
#define PAGE_LIMIT 100000

struct ppocr_detector {
    OrtSession *session;
    OrtMemoryInfo *memory;
    char *input_name, *output_name;
};

ppocr_detector *ppocr_open_detector(const char *library_path, const void *model, size_t model_size, char *error, size_t size) {
    if (!load_runtime(library_path, error, size)) return NULL;
    ppocr_detector *d = calloc(1, sizeof *d);
    if (!d) {
        say(error, size, "out of memory", NULL);
        return NULL;
    }
    d->session = open_session(model, model_size, "cannot load the detection model", error, size);
    int ok = d->session != NULL;
    ok = ok && !failed(ORT(CreateCpuMemoryInfo, OrtStatus * (*)(int, int, OrtMemoryInfo **))(0, 0, &d->memory), "memory info", error, size);
    ok = ok && (d->input_name = io_name(d->session, 0, error, size)) && (d->output_name = io_name(d->session, 1, error, size));
    if (!ok) {
        ppocr_close_detector(d);
        return NULL;
    }
    return d;
}

void ppocr_close_detector(ppocr_detector *d) {
    if (!d) return;
    if (d->session) ORT(ReleaseSession, void (*)(OrtSession *))(d->session);
    if (d->memory) ORT(ReleaseMemoryInfo, void (*)(OrtMemoryInfo *))(d->memory);
    free(d->input_name);
    free(d->output_name);
    free(d);
}

// One side of the model's input: the page's side times `ratio`, truncated, rounded to a multiple of 32 (as
// rapidocr), and kept within [32, limit] (`limit` itself a multiple of 32).
static int det_side(int side, double ratio, int limit) {
    double scaled = floor(side * ratio);
    int rounded = (int)floor(scaled / 32 + 0.5) * 32;
    if (rounded > limit) rounded = limit;
    return rounded < 32 ? 32 : rounded;
}

static int box_order(const void *a, const void *b) {
    const ppocr_box *x = a, *y = b;
    if (x->top != y->top) return x->top < y->top ? -1 : 1;
    if (x->left != y->left) return x->left < y->left ? -1 : 1;
    return 0;
}

static int left_order(const void *a, const void *b) {
    const ppocr_box *x = a, *y = b;
    if (x->left != y->left) return x->left < y->left ? -1 : 1;
    return x->top < y->top ? -1 : x->top > y->top;
}

// Reading order: by top; then the boxes whose tops are above the first one's vertical middle make a row with it,
// read left to right ("Till 4", "Op", "1187" whose tops differ by a few pixels).
static void reading_order(ppocr_box *boxes, int count) {
    qsort(boxes, (size_t)count, sizeof *boxes, box_order);
    for (int i = 0; i < count;) {
        int middle = boxes[i].top + (boxes[i].bottom - boxes[i].top) / 2, j = i + 1;
        while (j < count && boxes[j].top < middle) j++;
        qsort(boxes + i, (size_t)(j - i), sizeof *boxes, left_order);
        i = j;
    }
}

static int32_t clamp_round(double v, int high) {
    if (!(v > 0)) return 0;  // also NaN
    if (v >= high) return high;
    return (int32_t)floor(v + 0.5);
}

// The DB post-processing on the probability map `map` (mw x mh), boxes scaled to the page (width x height) into
// `found` (room for PPOCR_MAX_BOXES). Returns how many, or -1 when memory ran out.
static int db_boxes(const float *map, int mw, int mh, int width, int height, ppocr_box *found) {
    size_t n = (size_t)mw * mh;
    uint8_t *mask = malloc(n);
    int32_t *stack = malloc(n * sizeof *stack);
    double *sums = malloc((size_t)(mw + 1) * (mh + 1) * sizeof *sums);  // integral image of the map
    int count = -1;
    if (!mask || !stack || !sums) goto done;
    for (size_t i = 0; i < n; i++) mask[i] = map[i] > DET_THRESH;
    // cv2.dilate with a 2x2 kernel (anchor at its centre, (1,1)): a pixel is set when it, its left, upper or
    // upper-left neighbour is. Walking backwards, those neighbours are still undilated when read.
    for (int y = mh - 1; y >= 0; y--)
        for (int x = mw - 1; x >= 0; x--) {
            uint8_t *p = mask + (size_t)y * mw + x;
            if (x > 0) *p |= p[-1];
            if (y > 0) *p |= p[-mw] | (x > 0 ? p[-mw - 1] : 0);
        }
    size_t sw = (size_t)mw + 1;
    for (int x = 0; x <= mw; x++) sums[x] = 0;
    for (int y = 0; y < mh; y++) {
        double row = 0;
        sums[(size_t)(y + 1) * sw] = 0;
        for (int x = 0; x < mw; x++) {
            row += map[(size_t)y * mw + x];
            sums[(size_t)(y + 1) * sw + x + 1] = sums[(size_t)y * sw + x + 1] + row;
        }
    }
    count = 0;
    double sx = (double)width / mw, sy = (double)height / mh;
    for (size_t start = 0; start < n && count < PPOCR_MAX_BOXES; start++) {
        if (mask[start] != 1) continue;
        // One 8-connected component, flooded with an explicit stack: each pixel is pushed once (marked 2 when
        // pushed), so the stack never holds more than the map's pixels.
        int left = (int)(start % mw), right = left, top = (int)(start / mw), bottom = top;
        size_t depth = 0;
        stack[depth++] = (int32_t)start;
        mask[start] = 2;
        while (depth) {
            int32_t i = stack[--depth];
            int x = i % mw, y = i / mw;
            if (x < left) left = x;
            if (x > right) right = x;
            if (y < top) top = y;
            if (y > bottom) bottom = y;
            for (int dy = -1; dy <= 1; dy++) {
                int ny = y + dy;
                if (ny < 0 || ny >= mh) continue;
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx;
                    if (nx < 0 || nx >= mw) continue;
                    size_t j = (size_t)ny * mw + nx;
                    if (mask[j] == 1) {
                        mask[j] = 2;
                        stack[depth++] = (int32_t)j;
                    }
                }
            }
        }
        // Sides as cv2.minAreaRect measures the contour through the pixel centres.
        int w = right - left, h = bottom - top;
        if ((w < h ? w : h) < DET_MIN_SIZE) continue;
        // box_score_fast: the mean probability over the box, its edge pixels included.
        double total = sums[(size_t)(bottom + 1) * sw + right + 1] - sums[(size_t)top * sw + right + 1] - sums[(size_t)(bottom + 1) * sw + left] +
            sums[(size_t)top * sw + left];
        double score = total / ((double)(w + 1) * (h + 1));
        if (score < DET_BOX_THRESH) continue;
        // unclip: pyclipper's offset of the rectangle by area * ratio / perimeter, on every side.
        double distance = (double)w * h * DET_UNCLIP_RATIO / (2.0 * (w + h));
        if (w + 2 * distance < DET_MIN_SIZE + 2 || h + 2 * distance < DET_MIN_SIZE + 2) continue;
        found[count++] = (ppocr_box){
            clamp_round((left - distance) * sx, width), clamp_round((top - distance) * sy, height),
            clamp_round((right + distance) * sx, width), clamp_round((bottom + distance) * sy, height), (float)score};
    }
    reading_order(found, count);
done:
    free(mask);
    free(stack);
    free(sums);
    return count;
}

int ppocr_detect(
    ppocr_detector *d, const uint8_t *gray, int width, int height, int stride, int max_side, ppocr_box *boxes, int capacity, char *error,
    size_t size) {
    if (!d || !gray || width <= 0 || height <= 0 || width > PAGE_LIMIT || height > PAGE_LIMIT || stride < width || capacity < 0 ||
        (capacity > 0 && !boxes)) {
        say(error, size, "not a page image", NULL);
        return -1;
    }
    // The long side at most max_side (never enlarged), within [32, PPOCR_DET_MAX_SIDE], a multiple of 32.
    int limit = max_side < 32 ? 32 : max_side > PPOCR_DET_MAX_SIDE ? PPOCR_DET_MAX_SIDE : max_side;
    limit -= limit % 32;
    int longest = width > height ? width : height;
    double ratio = longest > limit ? (double)limit / longest : 1.0;
    int mw = det_side(width, ratio, limit), mh = det_side(height, ratio, limit);
    // Both at most PPOCR_DET_MAX_SIDE: the products below fit in size_t and the pixel indices in int32.
    size_t plane = (size_t)mw * mh;
    float *input = malloc(3 * plane * sizeof(float));
    ppocr_box *found = malloc(PPOCR_MAX_BOXES * sizeof *found);
    OrtValue *tensor = NULL, *output = NULL;
    int count = -1;
    if (!input || !found) {
        say(error, size, "out of memory", NULL);
        goto done;
    }
    scale_line(gray, width, height, stride, input, mw, mh, mw);
    memcpy(input + plane, input, plane * sizeof(float));
    memcpy(input + 2 * plane, input, plane * sizeof(float));
    int64_t shape[4] = {1, 3, mh, mw};
    if (failed(ORT(CreateTensorWithDataAsOrtValue, OrtStatus * (*)(OrtMemoryInfo *, void *, size_t, const int64_t *, size_t, int, OrtValue **))(
                   d->memory, input, 3 * plane * sizeof(float), shape, 4, FLOAT_TENSOR, &tensor),
               "input tensor", error, size))
        goto done;
    const char *in_names[1] = {d->input_name}, *out_names[1] = {d->output_name};
    const OrtValue *ins[1] = {tensor};
    if (failed(ORT(Run, OrtStatus * (*)(OrtSession *, void *, const char *const *, const OrtValue *const *, size_t, const char *const *, size_t, OrtValue **))(
                   d->session, NULL, in_names, ins, 1, out_names, 1, &output),
               "detection", error, size))
        goto done;
    OrtTensorTypeAndShapeInfo *info;
    size_t dims_count = 0;
    int64_t dims[4] = {0, 0, 0, 0};
    if (failed(ORT(GetTensorTypeAndShape, OrtStatus * (*)(OrtValue *, OrtTensorTypeAndShapeInfo **))(output, &info), "output", error, size)) goto done;
    OrtStatus *status = ORT(GetDimensionsCount, OrtStatus * (*)(OrtTensorTypeAndShapeInfo *, size_t *))(info, &dims_count);
    if (!status && dims_count == 4) status = ORT(GetDimensions, OrtStatus * (*)(OrtTensorTypeAndShapeInfo *, int64_t *, size_t))(info, dims, 4);
    ORT(ReleaseTensorTypeAndShapeInfo, void (*)(OrtTensorTypeAndShapeInfo *))(info);
    if (failed(status, "output", error, size)) goto done;
    if (dims_count != 4 || dims[0] != 1 || dims[1] != 1 || dims[2] != mh || dims[3] != mw) {
        say(error, size, "the model's output is not a probability map of its input's size: not a PP-OCR detection model", NULL);
        goto done;
    }
    float *map;
    if (failed(ORT(GetTensorMutableData, OrtStatus * (*)(OrtValue *, void **))(output, (void **)&map), "output", error, size)) goto done;
    count = db_boxes(map, mw, mh, width, height, found);
    if (count < 0) {
        say(error, size, "out of memory", NULL);
        goto done;
    }
    if (capacity > 0) memcpy(boxes, found, (size_t)(count < capacity ? count : capacity) * sizeof *found);
done:
    if (output) ORT(ReleaseValue, void (*)(OrtValue *))(output);
    if (tensor) ORT(ReleaseValue, void (*)(OrtValue *))(tensor);
    free(input);
    free(found);
    return count;
}
