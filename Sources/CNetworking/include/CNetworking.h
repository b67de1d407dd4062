// CNetworking: one blocking HTTP GET through libcurl, for the remote sources.
//
// Redirects are not followed here: the caller sees each 3xx with its
// Location and decides whether to go on and with which headers, so a
// credential never travels to a host it was not meant for. Nothing here
// prints; errors come back as text.
#ifndef CNETWORKING_H
#define CNETWORKING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Told how far a transfer has come; a nonzero return aborts it (cancel).
// `expected` is -1 while the size is not known.
typedef int (*pk_http_progress_fn)(void *context, int64_t received, int64_t expected);

typedef struct {
  const char *url;
  // "Name: value" lines, `header_count` of them.
  const char *const *headers;
  int header_count;
  long connect_timeout_ms;
  // The whole transfer; 0 for none.
  long timeout_ms;
  // A transfer slower than 1 byte/s for this long is given up; 0 for none.
  long stall_timeout_ms;
  // Bodies past this size are refused (declared or as they arrive).
  int64_t max_bytes;
  // >= 0: the body is written to this descriptor instead of memory.
  int write_fd;
  pk_http_progress_fn progress;
  void *context;
} pk_http_request;

typedef struct {
  long status;
  // The body when write_fd < 0; malloc'd, free with pk_http_response_free.
  uint8_t *body;
  size_t length;
  // Bytes written to write_fd.
  int64_t written;
  // The absolute target of a 3xx, else empty.
  char location[4096];
  char content_type[256];
  char error[256];
} pk_http_response;

enum {
  PK_HTTP_OK = 0,
  PK_HTTP_FAILED = -1,     // connection, timeout, TLS...: see error
  PK_HTTP_TOO_LARGE = -2,  // over max_bytes
  PK_HTTP_ABORTED = -3,    // the progress callback asked to stop
};

// Once, before any thread uses pk_http_get.
void pk_http_global_init(void);

// Connections are kept alive across a thread's transfers unless turned off
// (the benchmark compares both). Call before the first transfer.
void pk_http_set_connection_reuse(int reuse);

// Performs the GET; PK_HTTP_OK means a response arrived (any status).
int pk_http_get(const pk_http_request *request, pk_http_response *response);

void pk_http_response_free(pk_http_response *response);

#ifdef __cplusplus
}
#endif

#endif
