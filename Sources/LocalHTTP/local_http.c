// A web server for one person on this machine: libmicrohttpd with its own polling thread and no thread per
// connection, so the handler runs on one thread and requests are served one after another (the review store is
// one SQLite file; a person's clicks do not need more). It listens on the loopback address only, never on all
// interfaces: the socket address is given, not just the port.
#include "LocalHTTP.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

struct LocalHTTP {
    struct MHD_Daemon *daemon;
    size_t max_body;
    LocalHTTP_handler handler;
    void *context;
};

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
    if (u->too_large) {
        static const char message[] = "The request is larger than this server takes.\n";
        return LocalHTTP_respond(connection, 413, "Content-Type: text/plain; charset=utf-8", message, sizeof message - 1);
    }
    return server->handler(server->context, connection, method, url, u->data, u->length);
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    struct upload *u = *con_cls;
    if (u != NULL) {
        free(u->data);
        free(u);
        *con_cls = NULL;
    }
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
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    errno = 0;
    server->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, port, NULL, NULL, on_request, server, MHD_OPTION_SOCK_ADDR,
                                      (struct sockaddr *)&address, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
                                      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)32, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)60,
                                      MHD_OPTION_END);
    if (server->daemon == NULL) {
        if (error_out) *error_out = errno != 0 ? errno : EADDRINUSE;
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
