// WebDAV PROPFIND replies (RFC 4918 multistatus) read with libxml2's
// streaming reader, safely: no DTD is loaded, no entity is substituted, the
// network is never touched, and a document with a DOCTYPE is refused
// outright (a multistatus never needs one, and entity bombs live there).
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdlib.h>
#include <string.h>

#include "CNetworking.h"

static const char *dav = "DAV:";
static const char *owncloud = "http://owncloud.org/ns";
static const char *nextcloud = "http://nextcloud.org/ns";

typedef struct {
  pk_dav_entry *items;
  size_t count, capacity;
} entry_list;

static int is(xmlTextReaderPtr reader, const char *ns, const char *name) {
  const xmlChar *uri = xmlTextReaderConstNamespaceUri(reader);
  const xmlChar *local = xmlTextReaderConstLocalName(reader);
  return uri != NULL && local != NULL && strcmp((const char *)uri, ns) == 0 &&
         strcmp((const char *)local, name) == 0;
}

// The element's text (its string value), copied into `target`.
static void read_text(xmlTextReaderPtr reader, char *target, size_t size) {
  xmlChar *text = xmlTextReaderReadString(reader);
  snprintf(target, size, "%s", text != NULL ? (const char *)text : "");
  xmlFree(text);
  // Trimmed: servers indent.
  size_t start = strspn(target, " \t\r\n");
  memmove(target, target + start, strlen(target + start) + 1);
  size_t length = strlen(target);
  while (length > 0 && strchr(" \t\r\n", target[length - 1]) != NULL) target[--length] = 0;
}

static int append(entry_list *list, const pk_dav_entry *entry) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 64;
    pk_dav_entry *grown = realloc(list->items, capacity * sizeof *grown);
    if (grown == NULL) return -1;
    list->items = grown;
    list->capacity = capacity;
  }
  list->items[list->count++] = *entry;
  return 0;
}

// Properties of one <propstat>, kept only when its status is 2xx.
static void read_property(xmlTextReaderPtr reader, pk_dav_entry *props) {
  char number[32];
  if (is(reader, dav, "resourcetype")) {
    if (xmlTextReaderIsEmptyElement(reader)) return;
    const int depth = xmlTextReaderDepth(reader);
    while (xmlTextReaderRead(reader) == 1 && xmlTextReaderDepth(reader) > depth)
      if (xmlTextReaderNodeType(reader) == XML_READER_TYPE_ELEMENT && is(reader, dav, "collection"))
        props->is_collection = 1;
  } else if (is(reader, dav, "getcontentlength")) {
    read_text(reader, number, sizeof number);
    props->content_length = strtoll(number, NULL, 10);
  } else if (is(reader, dav, "getcontenttype")) {
    read_text(reader, props->content_type, sizeof props->content_type);
  } else if (is(reader, dav, "getlastmodified")) {
    read_text(reader, props->last_modified, sizeof props->last_modified);
  } else if (is(reader, dav, "getetag")) {
    read_text(reader, props->etag, sizeof props->etag);
  } else if (is(reader, owncloud, "fileid")) {
    read_text(reader, props->file_id, sizeof props->file_id);
  } else if (is(reader, nextcloud, "has-preview")) {
    read_text(reader, number, sizeof number);
    props->has_preview = strcmp(number, "true") == 0 ? 1 : 0;
  }
}

static void merge(pk_dav_entry *entry, const pk_dav_entry *props) {
  entry->is_collection |= props->is_collection;
  if (props->content_length >= 0) entry->content_length = props->content_length;
  if (props->content_type[0]) memcpy(entry->content_type, props->content_type, sizeof entry->content_type);
  if (props->last_modified[0]) memcpy(entry->last_modified, props->last_modified, sizeof entry->last_modified);
  if (props->etag[0]) memcpy(entry->etag, props->etag, sizeof entry->etag);
  if (props->file_id[0]) memcpy(entry->file_id, props->file_id, sizeof entry->file_id);
  if (props->has_preview >= 0) entry->has_preview = props->has_preview;
}

static void blank(pk_dav_entry *entry) {
  memset(entry, 0, sizeof *entry);
  entry->content_length = -1;
  entry->has_preview = -1;
}

int pk_dav_parse_multistatus(const uint8_t *xml, size_t size, pk_dav_entry **entries, size_t *count, char *error,
  size_t error_size) {
  *entries = NULL;
  *count = 0;
  if (size > INT32_MAX) {
    snprintf(error, error_size, "reply too large");
    return -1;
  }
  // No XML_PARSE_NOENT (entities stay unexpanded), no DTDLOAD or DTDATTR,
  // no network; libxml2's own limits (no XML_PARSE_HUGE) stay on.
  xmlTextReaderPtr reader = xmlReaderForMemory((const char *)xml, (int)size, "propfind.xml", NULL,
    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (reader == NULL) {
    snprintf(error, error_size, "cannot read the reply");
    return -1;
  }
  entry_list list = {0};
  pk_dav_entry entry, props;
  int in_response = 0, in_propstat = 0, status_ok = 0, saw_multistatus = 0, result = 0;
  blank(&entry);
  blank(&props);
  int step;
  while ((step = xmlTextReaderRead(reader)) == 1) {
    const int type = xmlTextReaderNodeType(reader);
    if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
      snprintf(error, error_size, "a reply with a DOCTYPE is refused");
      result = -1;
      break;
    }
    if (type == XML_READER_TYPE_ENTITY_REFERENCE) {
      snprintf(error, error_size, "a reply with entity references is refused");
      result = -1;
      break;
    }
    if (type == XML_READER_TYPE_ELEMENT) {
      if (is(reader, dav, "multistatus")) {
        saw_multistatus = 1;
      } else if (is(reader, dav, "response") && !xmlTextReaderIsEmptyElement(reader)) {
        in_response = 1;
        blank(&entry);
      } else if (in_response && !in_propstat && is(reader, dav, "href")) {
        read_text(reader, entry.href, sizeof entry.href);
      } else if (in_response && is(reader, dav, "propstat") && !xmlTextReaderIsEmptyElement(reader)) {
        in_propstat = 1;
        status_ok = 0;
        blank(&props);
      } else if (in_propstat && is(reader, dav, "status")) {
        char status[128];
        read_text(reader, status, sizeof status);
        // "HTTP/1.1 200 OK": the code is the second word.
        const char *space = strchr(status, ' ');
        status_ok = space != NULL && space[1] == '2';
      } else if (in_propstat) {
        read_property(reader, &props);
      }
    } else if (type == XML_READER_TYPE_END_ELEMENT) {
      if (in_propstat && is(reader, dav, "propstat")) {
        in_propstat = 0;
        if (status_ok) merge(&entry, &props);
      } else if (in_response && is(reader, dav, "response")) {
        in_response = 0;
        if (entry.href[0] && append(&list, &entry) != 0) {
          snprintf(error, error_size, "out of memory");
          result = -1;
          break;
        }
      }
    }
  }
  if (result == 0 && step < 0) {
    const xmlError *last = xmlGetLastError();
    snprintf(error, error_size, "malformed XML%s%s", last && last->message ? ": " : "",
      last && last->message ? last->message : "");
    size_t length = strlen(error);
    while (length > 0 && (error[length - 1] == '\n' || error[length - 1] == ' ')) error[--length] = 0;
    result = -1;
  }
  if (result == 0 && !saw_multistatus) {
    snprintf(error, error_size, "not a WebDAV multistatus reply");
    result = -1;
  }
  xmlFreeTextReader(reader);
  if (result != 0) {
    free(list.items);
    return -1;
  }
  *entries = list.items;
  *count = list.count;
  return 0;
}

void pk_dav_entries_free(pk_dav_entry *entries) { free(entries); }

const char *pk_xml_library_version(void) { return xmlParserVersion; }
