#ifndef CRASHNOTE_H
#define CRASHNOTE_H
// Which document a thread was reading when the process crashed, written to a file from the signal handler
// (crash_note.c says how and why).

/// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP; each writes the crashing
/// thread's note, a tab and the signal number as one line to `fd`, then hands the signal on to the handler
/// that was there before (the default one: the process dies as it would have). Call once; `fd` stays open.
void CrashNote_install(int fd);

/// The calling thread's note (at most 16,384 bytes, cut there): what it is reading now. An empty note: nothing.
void CrashNote_set(const char *note);

/// Gives the calling thread a signal stack of its own (64 KiB), so that a stack overflow's fault still writes
/// the note; `CrashNote_threadEnding` takes it back (call both on every worker thread).
void CrashNote_threadStarted(void);
void CrashNote_threadEnding(void);

#endif
