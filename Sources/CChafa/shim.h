// libchafa (and the glib it is built on), found through pkg-config. Only
// CImaging's C code uses it; Swift never calls chafa directly.
#include <chafa.h>
