// libxml2, found through pkg-config. Only CNetworking's C code uses it (the
// WebDAV multistatus reader); Swift never calls libxml2 directly.
#include <libxml/xmlreader.h>
