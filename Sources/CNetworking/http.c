#include "CNetworking.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "optional_curl.h"
#include "system_calls.h"

typedef struct {
  const pk_http_request *request;
  pk_http_response *response;
  size_t capacity;
  int too_large;
  int write_failed;
} transfer;

// The thumbnails of a page come from one host, and a new TCP (and TLS)
// handshake for each would cost more than the thumbnail. libcurl cannot
// share connections between threads, so each thread keeps one handle (and
// with it its connections) for its life; DNS answers and TLS sessions are
// shared by all.
static CURLSH *shared;
static pthread_key_t handle_key;
static int reuse_connections = 1;
static pthread_mutex_t locks[CURL_LOCK_DATA_LAST];

static void lock_shared(CURL *handle, curl_lock_data data, curl_lock_access access, void *context) {
  (void)handle;
  (void)access;
  (void)context;
  pthread_mutex_lock(&locks[data]);
}

static void unlock_shared(CURL *handle, curl_lock_data data, void *context) {
  (void)handle;
  (void)context;
  pthread_mutex_unlock(&locks[data]);
}

void pk_http_set_connection_reuse(int reuse) { reuse_connections = reuse; }

static void release_handle(void *handle) { curl_easy_cleanup(handle); }

// This thread's handle, reset to defaults (connections kept), or a fresh
// one when reuse is off; NULL when libcurl cannot make one.
static CURL *take_handle(void) {
  if (!reuse_connections) return curl_easy_init();
  CURL *handle = pthread_getspecific(handle_key);
  if (handle) {
    curl_easy_reset(handle);
    return handle;
  }
  handle = curl_easy_init();
  if (handle) pthread_setspecific(handle_key, handle);
  return handle;
}

static void give_back_handle(CURL *handle) {
  if (!reuse_connections) curl_easy_cleanup(handle);
}

void pk_http_global_init(void) {
  if (!pk_open_curl()) return;
  curl_global_init(CURL_GLOBAL_DEFAULT);
  pthread_key_create(&handle_key, release_handle);
  for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&locks[i], NULL);
  shared = curl_share_init();
  if (!shared) return;
  curl_share_setopt(shared, CURLSHOPT_LOCKFUNC, lock_shared);
  curl_share_setopt(shared, CURLSHOPT_UNLOCKFUNC, unlock_shared);
  curl_share_setopt(shared, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  curl_share_setopt(shared, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
  transfer *t = context;
  size_t length = size * count;
  pk_http_response *response = t->response;
  int64_t so_far = t->request->write_fd >= 0 ? response->written : (int64_t)response->length;
  if (t->request->max_bytes > 0 && so_far + (int64_t)length > t->request->max_bytes) {
    t->too_large = 1;
    return 0;  // anything but `length` aborts the transfer
  }
  if (t->request->write_fd >= 0) {
    if (pk_io_write_all(t->request->write_fd, data, length) != 0) {
      t->write_failed = errno ? errno : EIO;
      return 0;
    }
    response->written += (int64_t)length;
    return length;
  }
  if (response->length + length > t->capacity) {
    size_t capacity = t->capacity ? t->capacity : 16384;
    while (capacity < response->length + length) capacity *= 2;
    uint8_t *grown = realloc(response->body, capacity);
    if (!grown) {
      t->write_failed = ENOMEM;
      return 0;
    }
    response->body = grown;
    t->capacity = capacity;
  }
  memcpy(response->body + response->length, data, length);
  response->length += length;
  return length;
}

static int on_progress(void *context, curl_off_t total, curl_off_t now, curl_off_t up_total, curl_off_t up_now) {
  (void)up_total;
  (void)up_now;
  transfer *t = context;
  if (!t->request->progress) return 0;
  return t->request->progress(t->request->context, (int64_t)now, total > 0 ? (int64_t)total : -1);
}

static void copy_text(char *target, size_t size, const char *text) {
  if (!text) {
    target[0] = 0;
    return;
  }
  strncpy(target, text, size - 1);
  target[size - 1] = 0;
}

int pk_http_get(const pk_http_request *request, pk_http_response *response) {
  memset(response, 0, sizeof *response);
  if (!pk_open_curl()) {
    snprintf(response->error, sizeof response->error, "web sources need libcurl, not installed (%s)",
      pk_curl_library.error);
    return PK_HTTP_FAILED;
  }
  CURL *curl = take_handle();
  if (!curl) {
    copy_text(response->error, sizeof response->error, "cannot start an HTTP transfer");
    return PK_HTTP_FAILED;
  }
  transfer t = {.request = request, .response = response};
  struct curl_slist *headers = NULL;
  for (int i = 0; i < request->header_count; i++) headers = curl_slist_append(headers, request->headers[i]);
  char curl_error[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(curl, CURLOPT_URL, request->url);
  if (request->method != NULL) {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request->body != NULL ? (const char *)request->body : "");
  }
  if (shared) curl_easy_setopt(curl, CURLOPT_SHARE, shared);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  // Threads: no SIGALRM for DNS timeouts.
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
  // Every option is set on every transfer: the handle is reused, and a
  // limit left from the last transfer must not apply to this one.
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, request->stall_timeout_ms > 0 ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, request->stall_timeout_ms > 0 ? (request->stall_timeout_ms + 999) / 1000 : 0L);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)(request->max_bytes > 0 ? request->max_bytes : 0));
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "picker-tui");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);

  CURLcode code = curl_easy_perform(curl);
  int result = PK_HTTP_OK;
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
    char *text = NULL;
    if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &text) == CURLE_OK)
      copy_text(response->location, sizeof response->location, text);
    text = NULL;
    if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &text) == CURLE_OK)
      copy_text(response->content_type, sizeof response->content_type, text);
  } else if (t.too_large || code == CURLE_FILESIZE_EXCEEDED) {
    result = PK_HTTP_TOO_LARGE;
    copy_text(response->error, sizeof response->error, "response too large");
  } else if (code == CURLE_ABORTED_BY_CALLBACK) {
    result = PK_HTTP_ABORTED;
    copy_text(response->error, sizeof response->error, "cancelled");
  } else if (t.write_failed) {
    result = PK_HTTP_FAILED;
    copy_text(response->error, sizeof response->error, strerror(t.write_failed));
  } else {
    result = PK_HTTP_FAILED;
    const char *reason = curl_error[0] ? curl_error : curl_easy_strerror(code);
    if (code == CURLE_OPERATION_TIMEDOUT) reason = "timed out";
    if (code == CURLE_COULDNT_CONNECT) reason = "cannot connect";
    copy_text(response->error, sizeof response->error, reason);
  }
  // The handle keeps pointers to these until its next reset; the next
  // transfer is a GET unless it says otherwise.
  if (request->method != NULL) {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, NULL);
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
  curl_slist_free_all(headers);
  give_back_handle(curl);
  if (result != PK_HTTP_OK) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
  }
  return result;
}

void pk_http_response_free(pk_http_response *response) {
  free(response->body);
  response->body = NULL;
  response->length = 0;
}

const char *pk_http_library_version(void) { return pk_open_curl() ? curl_version() : "libcurl not installed"; }
