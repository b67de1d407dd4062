#include "optional_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

static int open_now(pk_optional_library *library) {
  // RTLD_NOW: a function missing from the installed version is found here,
  // not as a crash on its first call.
  void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(library->error, sizeof library->error, "%s", why ? why : library->soname);
    return -1;
  }
  for (size_t i = 0; i < library->count; i++) {
    void *address = dlsym(handle, library->names[i]);
    if (address == NULL) {
      snprintf(library->error, sizeof library->error, "%s has no %s", library->soname, library->names[i]);
      for (size_t j = 0; j < i; j++) *library->slots[j] = NULL;
      // Not closed: its constructors have run, and nothing here is undone.
      return -1;
    }
    *library->slots[i] = address;
  }
  return 1;
}

int pk_optional_library_open(pk_optional_library *library) {
  int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
  if (state != 0) return state == 1;
  pthread_mutex_lock(&opening);
  state = library->state;
  if (state == 0) {
    state = open_now(library);
    __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&opening);
  return state == 1;
}
