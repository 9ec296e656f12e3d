// A document whose reading crashes the process (a poppler allocation abort, a fault in a C library, a trap in
// Swift's checked arithmetic) would crash every later run too, and the run would never finish. So each worker
// thread keeps a note of the document it reads, and a handler for the crashing signals writes the crashing
// thread's note to a file in the output folder before the process dies. The next run reads that file and fails
// the document by name (reader-crashed) instead of reading it again.
//
// Only async-signal-safe calls are made in the handler (write, sigaction, raise); the note is a thread-local
// buffer filled outside it. The handler then restores the action that was there before (the default, or a
// sanitizer's or Swift's backtracer's) and lets the signal take its course: a fault re-faults on return, a
// signal sent by abort() or kill is raised again.
#include "CrashNote.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { NOTE_MAX = 4000 };

static int note_fd = -1;
static __thread char note[NOTE_MAX + 1];
static __thread size_t note_length;
static struct sigaction previous[65];
static const int handled[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};

static void on_crash(int sig, siginfo_t *info, void *context) {
    (void)context;
    if (note_length > 0 && note_fd >= 0) {
        char line[NOTE_MAX + 16];
        size_t n = note_length;
        memcpy(line, note, n);
        line[n++] = '\t';
        int s = sig;
        char digits[4];
        int d = 0;
        do { digits[d++] = (char)('0' + s % 10); s /= 10; } while (s > 0 && d < 4);
        while (d > 0) line[n++] = digits[--d];
        line[n++] = '\n';
        ssize_t written = write(note_fd, line, n);
        (void)written;
        note_length = 0;
    }
    if (sig > 0 && sig < 65) sigaction(sig, &previous[sig], NULL);
    if (info == NULL || info->si_code <= 0) raise(sig);
}

void CrashNote_install(int fd) {
    note_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) sigaction(handled[i], &action, &previous[handled[i]]);
}

void CrashNote_set(const char *text) {
    size_t n = strlen(text);
    if (n > NOTE_MAX) n = NOTE_MAX;
    memcpy(note, text, n);
    note[n] = 0;
    note_length = n;
}
