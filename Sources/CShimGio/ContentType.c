#include "CShimGio.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

char *cgio_content_type_icon(const char *type) {
    GIcon *icon = g_content_type_get_icon(type);
    if (icon == NULL) return NULL;
    gchar *text = g_icon_to_string(icon);
    g_object_unref(icon);
    if (text == NULL) return NULL;
    // Copied with malloc: Swift frees it with free(3), not g_free.
    char *copy = strdup(text);
    g_free(text);
    return copy;
}
