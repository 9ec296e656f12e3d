// The sizes of every image a PDF page may draw, as the file declares them, before poppler sees any of them.
//
// Poppler allocates an image's line buffers from its declared /Width and /Height, and on a product that
// overflows it prints "Bogus memory allocation size" and aborts the whole process (poppler 22.12 does so for
// a 2000000000 × 2000000000 image covering the page, or the same image inside a form XObject or inline in the
// content stream). No limit of Shoebox's can look at an image once poppler renders the page, so the page is
// looked at here first, with qpdf, and refused when any image on it is over the limit.
//
// Images are found in the page's resources and, to any depth, in the resources of what those hold: form
// XObjects, tiling patterns, Type 3 fonts, soft masks; in the appearance streams of the page's annotations
// (poppler draws those too); and inline (BI … ID … EI) in the page's content and in every form, pattern,
// glyph and appearance stream. Each indirect object is looked at once (a cycle of forms ends), at most
// `maxObjects` of them, and no other page is entered. Content streams are read as stored when unfiltered,
// inflated by this file when Flate-compressed (at most `contentCap` bytes, so a small stream that inflates to
// gigabytes costs no more than that), and decoded by qpdf for other filters only when small.
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "internal.h"

// maxDepth counts dictionaries and arrays: a form inside a form is three levels (its /Resources, their /XObject, the
// form), and poppler draws forms nested about 100 deep (an absurd image under 60 nested forms still aborts it).
enum { maxObjects = 100000, maxDepth = 1000, seenSlots = 1 << 17 };
static const size_t contentCap = (size_t)64 << 20;
static const size_t otherFilterCap = (size_t)256 << 10;

typedef struct {
    qpdf_data qpdf;
    int seen[seenSlots];  // object ids of indirect objects looked at (open addressing; 0 is empty)
    int visits;
    long long width, height;
    double area;
    int damaged;  // the page draws an XObject qpdf cannot read (poppler may repair it and draw it)
} Walk;

/// True the first time an object is met (and while fewer than maxObjects were).
static int firstVisit(Walk *w, qpdf_oh oh) {
    if (++w->visits > maxObjects) return 0;
    int id = qpdf_oh_get_object_id(w->qpdf, oh);
    if (id <= 0) return 1;  // a direct object is inside one other object only; the depth bounds it
    unsigned hash = (unsigned)id * 2654435761u;
    for (unsigned probe = 0; probe < seenSlots; probe++) {
        unsigned slot = (hash + probe) & (seenSlots - 1);
        if (w->seen[slot] == 0) { w->seen[slot] = id; return 1; }
        if (w->seen[slot] == id) return 0;
    }
    return 0;
}

static long long saturated(double d) {
    if (d != d) return 0;
    if (d >= 9.2e18) return LLONG_MAX;
    if (d <= -9.2e18) return LLONG_MIN;
    return (long long)d;
}

/// A number entry (integer or real, as poppler takes either) under `key`, or under `other` when there is none.
static long long number(qpdf_data q, qpdf_oh dict, const char *key, const char *other) {
    qpdf_oh value = qpdf_oh_get_key(q, dict, key);
    if (!qpdf_oh_is_number(q, value) && other != NULL) value = qpdf_oh_get_key(q, dict, other);
    if (!qpdf_oh_is_number(q, value)) return 0;
    if (qpdf_oh_is_integer(q, value)) return qpdf_oh_get_int_value(q, value);
    return saturated(qpdf_oh_get_numeric_value(q, value));
}

/// An image of `width` × `height`; kept when it is the largest so far (poppler refuses sizes of 0 or less).
static void note(Walk *w, long long width, long long height) {
    if (width <= 0 || height <= 0) return;
    double area = (double)width * (double)height;
    if (area > w->area) { w->area = area; w->width = width; w->height = height; }
}

static int isSpace(unsigned char c) { return c == 0 || c == 9 || c == 10 || c == 12 || c == 13 || c == 32; }
static int isDelimiter(unsigned char c) { return c != 0 && strchr("()<>[]{}/%", c) != NULL; }

/// Moves `*at` past one value of an inline image's dictionary (a name, number, array, dictionary or string).
static void skipValue(const unsigned char *s, size_t n, size_t *at) {
    size_t j = *at;
    if (j >= n) return;
    unsigned char open = s[j], close = open == '[' ? ']' : open == '(' ? ')' : open == '<' ? '>' : 0;
    if (close != 0) {
        int depth = 0;
        for (; j < n; j++) {
            if (open == '(' && s[j] == '\\') { j++; continue; }
            if (s[j] == open) depth++;
            else if (s[j] == close && --depth == 0) { j++; break; }
        }
        while (j < n && s[j] == '>') j++;  // the second '>' of a dictionary's end
    } else {
        j++;  // a name's '/' or the first character of a token
        while (j < n && !isSpace(s[j]) && !isDelimiter(s[j])) j++;
    }
    *at = j;
}

/// Inline images (BI /W … /H … ID) in content stream bytes.
static void scanInline(Walk *w, const unsigned char *s, size_t n) {
    for (size_t i = 0; i + 2 <= n; i++) {
        if (s[i] != 'B' || s[i + 1] != 'I') continue;
        if ((i > 0 && !isSpace(s[i - 1]) && !isDelimiter(s[i - 1])) || (i + 2 < n && !isSpace(s[i + 2]) && s[i + 2] != '/')) continue;
        size_t j = i + 2;
        long long width = 0, height = 0;
        for (int entries = 0; entries < 64; entries++) {
            while (j < n && isSpace(s[j])) j++;
            if (j >= n || s[j] != '/') break;  // "ID", or not an inline image after all
            size_t key = ++j;
            while (j < n && !isSpace(s[j]) && !isDelimiter(s[j])) j++;
            size_t keyLength = j - key;
            while (j < n && isSpace(s[j])) j++;
            if (j < n && (isdigit(s[j]) || s[j] == '-' || s[j] == '+' || s[j] == '.')) {
                char digits[64];
                size_t m = 0;
                while (j < n && (isdigit(s[j]) || strchr("+-.eE", s[j]) != NULL)) {
                    if (s[j] == '0' && (m == 0 || (m == 1 && (digits[0] == '-' || digits[0] == '+'))) && j + 1 < n && isdigit(s[j + 1])) {
                        j++;  // a leading zero
                        continue;
                    }
                    if (m < sizeof digits - 1) digits[m++] = (char)s[j];
                    else if (isdigit(s[j])) { m = 0; digits[m++] = '9'; while (m < 30) digits[m++] = '9'; }  // too long: huge
                    j++;
                }
                digits[m] = 0;
                long long value = saturated(strtod(digits, NULL));
                if ((keyLength == 1 && s[key] == 'W') || (keyLength == 5 && memcmp(s + key, "Width", 5) == 0)) width = value;
                if ((keyLength == 1 && s[key] == 'H') || (keyLength == 6 && memcmp(s + key, "Height", 6) == 0)) height = value;
            } else {
                size_t before = j;
                skipValue(s, n, &j);
                if (j == before) break;
            }
        }
        note(w, width, height);
        i = j > i ? j - 1 : i;
    }
}

/// A stream's data as stored, malloc'd (NULL on an error).
static unsigned char *stored(qpdf_data q, qpdf_oh stream, enum qpdf_stream_decode_level_e level, size_t *length) {
    unsigned char *data = NULL;
    *length = 0;
    if (qpdf_oh_get_stream_data(q, stream, level, NULL, &data, length) & QPDF_ERRORS) {
        (void)qpdf_get_error(q);
        free(data);
        *length = 0;
        return NULL;
    }
    return data;
}

/// Flate data inflated, at most `cap` bytes of it (what inflated before an error, too).
static unsigned char *inflated(const unsigned char *data, size_t length, size_t cap, size_t *size) {
    z_stream z;
    memset(&z, 0, sizeof z);
    *size = 0;
    if (inflateInit(&z) != Z_OK) return NULL;
    size_t capacity = 1 << 16;
    unsigned char *out = malloc(capacity);
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)(length < UINT_MAX ? length : UINT_MAX);
    while (out != NULL) {
        if (*size == capacity) {
            if (capacity >= cap) break;
            size_t larger = capacity * 2 < cap ? capacity * 2 : cap;
            unsigned char *grown = realloc(out, larger);
            if (grown == NULL) break;
            out = grown;
            capacity = larger;
        }
        z.next_out = out + *size;
        z.avail_out = (uInt)(capacity - *size);
        int r = inflate(&z, Z_NO_FLUSH);
        *size = capacity - z.avail_out;
        if (r != Z_OK) break;  // the end, or damaged data
    }
    inflateEnd(&z);
    return out;
}

/// A content stream's bytes, decoded within the caps above; NULL when it cannot be (then it is not looked into).
static unsigned char *contentBytes(qpdf_data q, qpdf_oh stream, size_t *length) {
    qpdf_oh filter = qpdf_oh_get_key(q, qpdf_oh_get_dict(q, stream), "/Filter");
    if (qpdf_oh_is_array(q, filter) && qpdf_oh_get_array_n_items(q, filter) == 1) filter = qpdf_oh_get_array_item(q, filter, 0);
    size_t raw = 0;
    unsigned char *data = stored(q, stream, qpdf_dl_none, &raw);
    *length = 0;
    if (data == NULL) return NULL;
    if (qpdf_oh_is_null(q, filter) || (qpdf_oh_is_array(q, filter) && qpdf_oh_get_array_n_items(q, filter) == 0)) {
        *length = raw;
        return data;
    }
    if (qpdf_oh_is_name_and_equals(q, filter, "/FlateDecode")) {
        unsigned char *out = inflated(data, raw, contentCap, length);
        free(data);
        return out;
    }
    free(data);
    if (raw > otherFilterCap) return NULL;
    return stored(q, stream, qpdf_dl_generalized, length);
}

/// The names a content stream draws with `Do` (`/x6 Do`) that its /XObject resources give as an object qpdf cannot
/// read: a damaged image (a /Length that is no reference, say) that poppler repairs and draws at whatever size it
/// declares, unchecked. qpdf hides a key whose value it cannot read from a dictionary's keys, so the names come
/// from the content.
static void checkDrawn(Walk *w, qpdf_oh xobjects, const unsigned char *s, size_t n) {
    qpdf_data q = w->qpdf;
    for (size_t i = 1; i + 2 <= n && !w->damaged; i++) {
        if (s[i] != 'D' || s[i + 1] != 'o' || (i + 2 < n && !isSpace(s[i + 2]) && !isDelimiter(s[i + 2])) || !isSpace(s[i - 1])) continue;
        size_t end = i;
        while (end > 0 && isSpace(s[end - 1])) end--;
        size_t start = end;
        while (start > 0 && !isSpace(s[start - 1]) && !isDelimiter(s[start - 1])) start--;
        if (start == 0 || s[start - 1] != '/' || end - start == 0 || end - start > 127) continue;
        char name[130];
        name[0] = '/';
        memcpy(name + 1, s + start, end - start);
        name[end - start + 1] = 0;
        qpdf_oh value = qpdf_oh_get_key(q, xobjects, name);
        if (qpdf_oh_is_indirect(q, value) && qpdf_oh_is_null(q, value)) w->damaged = 1;
    }
}

/// Inline images in a content stream; with `xobjects` (a page's), also the damaged objects it draws.
static void scanContent(Walk *w, qpdf_oh stream, qpdf_oh xobjects, int checkXObjects) {
    size_t length = 0;
    unsigned char *data = contentBytes(w->qpdf, stream, &length);
    if (data != NULL) {
        scanInline(w, data, length);
        if (checkXObjects) checkDrawn(w, xobjects, data, length);
    }
    free(data);
}

/// Keys that lead away from what the page draws (other pages, outlines, actions).
static int leadsAway(const char *key) {
    static const char *const keys[] = {"/Parent", "/P", "/Dest", "/A", "/AA", "/Next", "/Prev", "/First", "/Last",
                                       "/Kids", "/Popup", "/IRT", "/StructParent", "/Metadata", NULL};
    for (int i = 0; keys[i] != NULL; i++) if (strcmp(key, keys[i]) == 0) return 1;
    return 0;
}

/// `content`: `oh` is (or, through dictionaries, holds) streams of page content: Type 3 glyphs, appearances.
static void walk(Walk *w, qpdf_oh oh, int depth, int content) {
    qpdf_data q = w->qpdf;
    if (depth > maxDepth || w->visits > maxObjects) return;
    int stream = qpdf_oh_is_stream(q, oh), array = qpdf_oh_is_array(q, oh);
    if (!stream && !array && !qpdf_oh_is_dictionary(q, oh)) return;
    if (!firstVisit(w, oh)) return;
    if (array) {
        int n = qpdf_oh_get_array_n_items(q, oh);
        for (int i = 0; i < n && w->visits <= maxObjects; i++) walk(w, qpdf_oh_get_array_item(q, oh, i), depth + 1, content);
        return;
    }
    qpdf_oh dict = stream ? qpdf_oh_get_dict(q, oh) : oh;
    qpdf_oh type = qpdf_oh_get_key(q, dict, "/Type");
    if (qpdf_oh_is_name_and_equals(q, type, "/Page") || qpdf_oh_is_name_and_equals(q, type, "/Pages")) return;
    qpdf_oh subtype = qpdf_oh_get_key(q, dict, "/Subtype");
    if (stream && qpdf_oh_is_name_and_equals(q, subtype, "/Image")) {
        note(w, number(q, dict, "/Width", NULL), number(q, dict, "/Height", NULL));
    } else if (stream && (content || qpdf_oh_is_name_and_equals(q, subtype, "/Form") || number(q, dict, "/PatternType", NULL) == 1)) {
        scanContent(w, oh, 0, 0);
    }
    // The values are gathered first: qpdf has one dictionary iterator, which walking them would restart.
    size_t count = 0, capacity = 0;
    qpdf_oh *values = NULL;
    unsigned char *holdsContent = NULL;
    qpdf_oh_begin_dict_key_iter(q, dict);
    while (qpdf_oh_dict_more_keys(q)) {
        const char *key = qpdf_oh_dict_next_key(q);
        if (key == NULL || leadsAway(key)) continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            qpdf_oh *v = realloc(values, capacity * sizeof *values);
            unsigned char *h = v ? realloc(holdsContent, capacity) : NULL;
            if (v) values = v;
            if (h) holdsContent = h;
            if (v == NULL || h == NULL) break;
        }
        values[count] = qpdf_oh_get_key(q, dict, key);
        holdsContent[count] = strcmp(key, "/CharProcs") == 0 || strcmp(key, "/AP") == 0 || (content && !stream);
        count++;
    }
    for (size_t i = 0; i < count && w->visits <= maxObjects; i++) walk(w, values[i], depth + 1, holdsContent[i]);
    free(values);
    free(holdsContent);
}

int PDFImages_declaredLargest(PDFImages *images, int index, long long *width, long long *height) {
    *width = 0;
    *height = 0;
    qpdf_data q = PDFImages_ready(images);
    if (q == NULL) return 0;
    int pages = qpdf_get_num_pages(q);
    if (qpdf_has_error(q) || index < 0 || index >= pages) { (void)qpdf_get_error(q); return 0; }
    Walk *w = calloc(1, sizeof *w);
    if (w == NULL) return 0;
    w->qpdf = q;
    qpdf_oh page = qpdf_get_page_n(q, (size_t)index);
    walk(w, qpdf_oh_get_key(q, page, "/Resources"), 0, 0);
    walk(w, qpdf_oh_get_key(q, page, "/Annots"), 0, 0);
    qpdf_oh contents = qpdf_oh_get_key(q, page, "/Contents");
    qpdf_oh xobjects = qpdf_oh_get_key(q, qpdf_oh_get_key(q, page, "/Resources"), "/XObject");
    int checkXObjects = qpdf_oh_is_dictionary(q, xobjects);
    if (qpdf_oh_is_stream(q, contents)) {
        scanContent(w, contents, xobjects, checkXObjects);
    } else if (qpdf_oh_is_array(q, contents)) {
        int n = qpdf_oh_get_array_n_items(q, contents);
        for (int i = 0; i < n && i < maxObjects; i++) {
            qpdf_oh part = qpdf_oh_get_array_item(q, contents, i);
            if (qpdf_oh_is_stream(q, part)) scanContent(w, part, xobjects, checkXObjects);
        }
    }
    if (qpdf_has_error(q)) (void)qpdf_get_error(q);
    *width = w->width;
    *height = w->height;
    int found = w->damaged ? -1 : w->area > 0;
    free(w);
    // Every handle the walk made (up to 100,000 objects a page) is let go: no caller keeps one between calls,
    // and a PDF of thousands of pages would otherwise hold them all until it is closed.
    qpdf_oh_release_all(q);
    return found;
}
