#ifndef LOCALHTTP_H
#define LOCALHTTP_H
// A web server bound to 127.0.0.1 only, over libmicrohttpd (local_http.c says how and why). Swift cannot call
// MHD_start_daemon (it is variadic), and collecting a request's body takes one call per chunk: this file does
// both, and hands each whole request to one handler, on one thread, so requests never run at the same time.

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/// Called once per request with its whole body (NULL and 0 when it has none). It must queue a response on
/// `connection` (MHD_queue_response) and return what that returned.
typedef enum MHD_Result (*LocalHTTP_handler)(void *context, struct MHD_Connection *connection, const char *method, const char *url,
                                             const char *body, size_t body_length);

typedef struct LocalHTTP LocalHTTP;

/// Listens on 127.0.0.1:`port` (0: a free port the system picks). A body longer than `max_body` bytes is
/// answered 413 without calling the handler. A request that has not all arrived 10 seconds after its connection
/// opened (or after the answer before it) is answered 408 and its connection closed; when more than 48 connections
/// wait for their requests, the one that has waited longest is answered 503 and closed. NULL when the port cannot be
/// had (`error_out`: errno).
LocalHTTP *LocalHTTP_start(uint16_t port, size_t max_body, LocalHTTP_handler handler, void *context, int *error_out);

/// The port it listens on.
uint16_t LocalHTTP_port(const LocalHTTP *server);

/// Stops listening, waits for the request being handled, frees the server.
void LocalHTTP_stop(LocalHTTP *server);

/// Queues a response of `status` with `length` bytes copied from `body` and the headers in `headers`: "Name: value"
/// lines joined by '\n' (NULL: none). Returns what MHD_queue_response returned.
enum MHD_Result LocalHTTP_respond(struct MHD_Connection *connection, unsigned int status, const char *headers, const void *body,
                                  size_t length);

#endif
