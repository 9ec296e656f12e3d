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
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// A note is a sha256, a tab and an escaped path (a path of 4,096 bytes escapes to at most 12,288).
enum { NOTE_MAX = 16384, ALTERNATE_STACK = 65536 };

static int note_fd = -1;
static __thread char note[NOTE_MAX + 1];
// Zero while the note is being written: a crash in between writes nothing rather than half a note.
static __thread volatile sig_atomic_t note_length;
static __thread void *alternate_stack;
static struct sigaction previous[65];
static const int handled[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};

// The crashing signals unblocked on the calling thread: a process started with them blocked (a parent's mask is
// inherited across exec) would otherwise be killed by a fault without the handler running, and a signal sent to a
// worker would wait unseen.
static void unblock_handled(void) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) sigaddset(&set, handled[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void on_crash(int sig, siginfo_t *info, void *context) {
    (void)context;
    if (note_length > 0 && note_fd >= 0) {
        char line[NOTE_MAX + 16];
        size_t n = (size_t)note_length;
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
    unblock_handled();
}

void CrashNote_set(const char *text) {
    size_t n = strlen(text);
    if (n > NOTE_MAX) n = NOTE_MAX;
    note_length = 0;
    memcpy(note, text, n);
    note[n] = 0;
    note_length = (sig_atomic_t)n;
}

void CrashNote_threadStarted(void) {
    unblock_handled();
    if (alternate_stack != NULL) return;
    alternate_stack = malloc(ALTERNATE_STACK);
    if (alternate_stack == NULL) return;
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = ALTERNATE_STACK, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) { free(alternate_stack); alternate_stack = NULL; }
}

void CrashNote_threadEnding(void) {
    note_length = 0;
    if (alternate_stack == NULL) return;
    stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(alternate_stack);
    alternate_stack = NULL;
}
