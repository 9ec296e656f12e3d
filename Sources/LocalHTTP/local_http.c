// A web server for one person on this machine: libmicrohttpd with its own polling thread and no thread per
// connection, so the handler runs on one thread and requests are served one after another (the review store is
// one SQLite file; a person's clicks do not need more). It listens on the loopback address only, never on all
// interfaces: the socket address is given, not just the port.
//
// Slow clients. The polling thread never waits on a client (its sockets do not block), so more threads would not
// help; what a slow client holds is a connection slot, and libmicrohttpd's timeout is an idle one, which each byte
// resets. So every connection has REQUEST_SECONDS from its opening (or from the end of the answer before it on the
// same connection) for its whole request, headers and body; past that a watchdog thread closes it, with a 408 and
// the sentence why. Slots are kept free too: when more than WAITING_LIMIT connections wait for their requests at
// once, the one that has waited longest is closed (503). The person's browser is on 127.0.0.1 like any other
// local client, so a per-address limit would not tell it apart; these two bounds are what keep a slot for it.
#include "LocalHTTP.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

// How long a request may take to arrive, headers and body (README and `serve --help` say it).
#define REQUEST_SECONDS 10
// How many connections may wait for their request at once; one more closes the one that has waited longest.
#define WAITING_LIMIT 48
// Connections in all: the waiting ones, and those whose request is handled or whose answer is being sent.
#define CONNECTION_LIMIT 64
// How long a connection may stay without a byte coming or going (libmicrohttpd's own timeout): a slow reader of an
// answer, which only a client holding the token can ask for.
#define IDLE_SECONDS 60

// A connection as the watchdog sees it. Waiting ones are in the server's list in the order of their deadlines
// (a deadline is always now plus REQUEST_SECONDS, so appending keeps the order).
struct watch {
    struct watch *previous, *next;
    int waiting; // in the list: its request has not all arrived
    int cut;     // closed by the watchdog: its request, if it still comes, is not handled
    uint64_t deadline;
    // A duplicate of the connection's socket, the watchdog's own: it stays open until libmicrohttpd says the
    // connection is closed, so the watchdog never touches a descriptor number that has meanwhile been reused.
    int fd;
};

struct LocalHTTP {
    struct MHD_Daemon *daemon;
    size_t max_body;
    LocalHTTP_handler handler;
    void *context;
    // The watchdog: the waiting connections, and the thread that closes those past their deadline.
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int stopping;
    struct watch *first, *last;
    unsigned waiting;
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// With the lock held: `w` waits for its request from now on.
static void start_waiting(LocalHTTP *server, struct watch *w) {
    w->deadline = now_ns() + (uint64_t)REQUEST_SECONDS * 1000000000u;
    w->waiting = 1;
    w->next = NULL;
    w->previous = server->last;
    if (server->last != NULL) server->last->next = w;
    else server->first = w;
    server->last = w;
    server->waiting++;
    pthread_cond_signal(&server->wake);
}

// With the lock held: `w` no longer waits (its request is in, or it is closed).
static void stop_waiting(LocalHTTP *server, struct watch *w) {
    if (!w->waiting) return;
    if (w->previous != NULL) w->previous->next = w->next;
    else server->first = w->next;
    if (w->next != NULL) w->next->previous = w->previous;
    else server->last = w->previous;
    w->previous = w->next = NULL;
    w->waiting = 0;
    server->waiting--;
}

#define DIGITS(n) #n
#define NUMBER(n) DIGITS(n)
static const char late[] = "The request did not arrive within " NUMBER(REQUEST_SECONDS) " seconds of the connection opening (or of the "
                           "answer before it), so the connection is closed. Send the whole request again, at once.\n";
static const char crowded[] = "More than " NUMBER(WAITING_LIMIT) " connections were waiting for their requests; this one had waited "
                              "longest and is closed. Send the request again.\n";

// With the lock held: answers `status` with `sentence` and closes the connection. libmicrohttpd is sending nothing
// on it (its request is not in; the answer before it, if any, was all sent), reads the end of the stream the
// shutdown makes, and closes the connection as it does when a client leaves. The answer is sent without waiting: a
// few hundred bytes into an empty socket buffer.
static void cut(LocalHTTP *server, struct watch *w, const char *status, const char *sentence) {
    stop_waiting(server, w);
    w->cut = 1;
    if (w->fd < 0) return;
    char answer[1024];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
                     status, strlen(sentence), sentence);
    if (n > 0 && (size_t)n < sizeof answer) (void)send(w->fd, answer, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    shutdown(w->fd, SHUT_RDWR);
}

// The watchdog's thread: sleeps until the first deadline, closes what is past it.
static void *watchdog(void *cls) {
    LocalHTTP *server = cls;
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        uint64_t now = now_ns();
        while (server->first != NULL && server->first->deadline <= now) cut(server, server->first, "408 Request Timeout", late);
        if (server->first == NULL) {
            pthread_cond_wait(&server->wake, &server->lock);
        } else {
            struct timespec until = {(time_t)(server->first->deadline / 1000000000u), (long)(server->first->deadline % 1000000000u)};
            pthread_cond_timedwait(&server->wake, &server->lock, &until);
        }
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

// A connection opens (libmicrohttpd's thread): it waits for its request, and makes room if too many wait. A
// connection that cannot be watched (no memory, no descriptor left) is closed at once.
static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code) {
    LocalHTTP *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        int fd = info != NULL ? info->connect_fd : -1;
        struct watch *w = calloc(1, sizeof *w);
        int own = fd >= 0 && w != NULL ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
        if (own < 0) {
            free(w);
            *socket_context = NULL;
            if (fd >= 0) shutdown(fd, SHUT_RDWR);
            return;
        }
        w->fd = own;
        *socket_context = w;
        pthread_mutex_lock(&server->lock);
        start_waiting(server, w);
        if (server->waiting > WAITING_LIMIT && server->first != w) cut(server, server->first, "503 Service Unavailable", crowded);
        pthread_mutex_unlock(&server->lock);
    } else {
        struct watch *w = *socket_context;
        if (w == NULL) return;
        pthread_mutex_lock(&server->lock);
        stop_waiting(server, w);
        pthread_mutex_unlock(&server->lock);
        close(w->fd);
        free(w);
        *socket_context = NULL;
    }
}

// The watchdog's record of a connection (NULL: not watched, to be closed).
static struct watch *watched(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

// Its whole request is in: it stops waiting, unless the watchdog closed it first (false).
static int arrived(LocalHTTP *server, struct watch *w) {
    if (w == NULL) return 0;
    pthread_mutex_lock(&server->lock);
    int in_time = !w->cut;
    stop_waiting(server, w);
    pthread_mutex_unlock(&server->lock);
    return in_time;
}

// A request's body, collected chunk by chunk.
struct upload {
    char *data;
    size_t length;
    int too_large;
};

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)version;
    LocalHTTP *server = cls;
    struct upload *u = *con_cls;
    struct watch *w = watched(connection);
    if (w == NULL) return MHD_NO;
    if (u == NULL) {
        // The first call sees the headers only.
        u = calloc(1, sizeof *u);
        if (u == NULL) return MHD_NO;
        *con_cls = u;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        size_t chunk = *upload_data_size;
        *upload_data_size = 0;
        if (u->too_large) return MHD_YES;
        if (chunk > server->max_body || u->length > server->max_body - chunk) {
            u->too_large = 1;
            free(u->data);
            u->data = NULL;
            u->length = 0;
            return MHD_YES;
        }
        char *grown = realloc(u->data, u->length + chunk);
        if (grown == NULL) return MHD_NO;
        memcpy(grown + u->length, upload_data, chunk);
        u->data = grown;
        u->length += chunk;
        return MHD_YES;
    }
    // The whole request is in.
    if (!arrived(server, w)) return MHD_NO;
    if (u->too_large) {
        static const char message[] = "The request is larger than this server takes.\n";
        return LocalHTTP_respond(connection, 413, "Content-Type: text/plain; charset=utf-8", message, sizeof message - 1);
    }
    return server->handler(server->context, connection, method, url, u->data, u->length);
}

// A request is over (answered, or its connection closed): the connection waits for the next one, from now.
static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
    (void)code;
    LocalHTTP *server = cls;
    struct watch *w = watched(connection);
    if (w != NULL) {
        pthread_mutex_lock(&server->lock);
        if (!w->cut && !w->waiting) start_waiting(server, w);
        pthread_mutex_unlock(&server->lock);
    }
    struct upload *u = *con_cls;
    if (u != NULL) {
        free(u->data);
        free(u);
        *con_cls = NULL;
    }
}

static void stop_watchdog(LocalHTTP *server) {
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->lock);
    pthread_join(server->thread, NULL);
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->lock);
}

LocalHTTP *LocalHTTP_start(uint16_t port, size_t max_body, LocalHTTP_handler handler, void *context, int *error_out) {
    LocalHTTP *server = calloc(1, sizeof *server);
    if (server == NULL) {
        if (error_out) *error_out = ENOMEM;
        return NULL;
    }
    server->max_body = max_body;
    server->handler = handler;
    server->context = context;
    pthread_condattr_t clock;
    pthread_condattr_init(&clock);
    pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
    int failed = pthread_mutex_init(&server->lock, NULL);
    if (failed == 0) {
        failed = pthread_cond_init(&server->wake, &clock);
        if (failed == 0) {
            failed = pthread_create(&server->thread, NULL, watchdog, server);
            if (failed != 0) pthread_cond_destroy(&server->wake);
        }
        if (failed != 0) pthread_mutex_destroy(&server->lock);
    }
    pthread_condattr_destroy(&clock);
    if (failed != 0) {
        if (error_out) *error_out = failed;
        free(server);
        return NULL;
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    errno = 0;
    server->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, port, NULL, NULL, on_request, server, MHD_OPTION_SOCK_ADDR,
                                      (struct sockaddr *)&address, MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                                      MHD_OPTION_NOTIFY_CONNECTION, on_connection, server, MHD_OPTION_CONNECTION_LIMIT,
                                      (unsigned int)CONNECTION_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_SECONDS,
                                      MHD_OPTION_END);
    if (server->daemon == NULL) {
        if (error_out) *error_out = errno != 0 ? errno : EADDRINUSE;
        stop_watchdog(server);
        free(server);
        return NULL;
    }
    return server;
}

uint16_t LocalHTTP_port(const LocalHTTP *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

void LocalHTTP_stop(LocalHTTP *server) {
    if (server == NULL) return;
    MHD_stop_daemon(server->daemon);
    stop_watchdog(server);
    free(server);
}

enum MHD_Result LocalHTTP_respond(struct MHD_Connection *connection, unsigned int status, const char *headers, const void *body,
                                  size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    if (headers != NULL) {
        // "Name: value" lines; a malformed line is skipped (the callers build these themselves).
        const char *line = headers;
        while (*line != '\0') {
            const char *end = strchr(line, '\n');
            size_t n = end != NULL ? (size_t)(end - line) : strlen(line);
            const char *colon = memchr(line, ':', n);
            if (colon != NULL && n < 4096) {
                char name[4096], value[4096];
                size_t name_length = (size_t)(colon - line);
                memcpy(name, line, name_length);
                name[name_length] = '\0';
                const char *v = colon + 1;
                while (v < line + n && *v == ' ') v++;
                size_t value_length = (size_t)(line + n - v);
                memcpy(value, v, value_length);
                value[value_length] = '\0';
                MHD_add_response_header(response, name, value);
            }
            line += n;
            if (*line == '\n') line++;
        }
    }
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}
