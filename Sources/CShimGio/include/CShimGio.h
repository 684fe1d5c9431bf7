#ifndef CDBUS_H
#define CDBUS_H

// A small, non-variadic C layer over GLib's GIO for `searchlight-desktop`, the one way Swift
// reaches GIO: GDBus, and the icon of a content type (ContentType.c).
//
// Swift cannot call GVariant's variadic builders (g_variant_new, g_variant_builder_add...),
// and GLib's headers are best kept out of Swift: this header exposes a service that owns a
// name on the session bus, serves objects described by introspection XML, hands each method
// call to one callback, and replies with the few shapes of answer the desktop search
// interfaces need. GDBus checks each call's arguments against the introspection data and
// answers a mismatch with org.freedesktop.DBus.Error.InvalidArgs before the callback sees it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A connection to a bus, the objects registered on it and the name it owns.
typedef struct cdbus_service cdbus_service;

/// One method call, answered exactly once by one of the `cdbus_reply_*` functions.
typedef struct cdbus_call cdbus_call;

/// Called on the thread that runs `cdbus_service_run` for every method call.
typedef void (*cdbus_method_handler)(void *context, cdbus_call *call);

/// Connects to the bus that started the process (`$DBUS_STARTER_ADDRESS`), else the session
/// bus (`$DBUS_SESSION_BUS_ADDRESS`). Returns NULL and sets `*error` (free with `free`) on failure.
cdbus_service *cdbus_service_new(cdbus_method_handler handler, void *context, char **error);

/// Serves `interface_name` of `xml` (introspection data) at `object_path`. Returns 0, or -1
/// and sets `*error` (free with `free`).
int cdbus_service_register(cdbus_service *service, const char *xml, const char *interface_name,
                           const char *object_path, char **error);

/// Owns `name`, then runs GLib's main loop on the calling thread until the service has had no
/// call for `idle_seconds` (0: never), until SIGTERM or SIGINT, or until the name is lost or
/// cannot be owned. Returns 0 when it stopped by itself, 1 when the name could not be owned or
/// was lost.
int cdbus_service_run(cdbus_service *service, const char *name, unsigned idle_seconds);

/// Releases the name, flushes and closes the connection, frees the service.
void cdbus_service_free(cdbus_service *service);

/// The called method's name, interface and object path.
const char *cdbus_call_method(const cdbus_call *call);
const char *cdbus_call_interface(const cdbus_call *call);
const char *cdbus_call_object_path(const cdbus_call *call);

/// The number of arguments of the call.
size_t cdbus_call_argument_count(const cdbus_call *call);

/// The strings of argument `index`: its elements for an `as`, itself for an `s`, nothing
/// otherwise. A NULL-terminated array of copies; free with `cdbus_strings_free`.
char **cdbus_call_strings(const cdbus_call *call, size_t index);

/// Frees what `cdbus_call_strings` returned.
void cdbus_strings_free(char **strings);

/// Replies `()`.
void cdbus_reply_empty(cdbus_call *call);

/// Replies with an error named `name` (`org.freedesktop.DBus.Error.Failed`…) and a message.
void cdbus_reply_error(cdbus_call *call, const char *name, const char *message);

/// Replies `(as)` with `count` strings.
void cdbus_reply_strings(cdbus_call *call, const char *const *strings, size_t count);

/// Replies `(a(sss))` with `count` triples given one after the other (`3 * count` strings).
void cdbus_reply_string_triples(cdbus_call *call, const char *const *strings, size_t count);

/// A list of dictionaries `aa{sv}` whose values are strings, built then sent by
/// `cdbus_reply_dictionaries`.
typedef struct cdbus_dictionaries cdbus_dictionaries;
cdbus_dictionaries *cdbus_dictionaries_new(void);
/// Adds a dictionary of `count` keys and string values (`keys[i]` → `values[i]`).
void cdbus_dictionaries_add(cdbus_dictionaries *list, const char *const *keys, const char *const *values, size_t count);
/// Replies `(aa{sv})` and frees the list.
void cdbus_reply_dictionaries(cdbus_call *call, cdbus_dictionaries *list);

/// KRunner's matches, `a(sssida{sv})`, built then sent by `cdbus_reply_matches`.
typedef struct cdbus_matches cdbus_matches;
cdbus_matches *cdbus_matches_new(void);
/// Adds a match: id, text, icon name, type, relevance, and the properties `urls` (`as`, `url_count`
/// strings), `subtext` and `category` (each left out when NULL).
void cdbus_matches_add(cdbus_matches *list, const char *id, const char *text, const char *icon, int32_t type,
                       double relevance, const char *const *urls, size_t url_count, const char *subtext,
                       const char *category);
/// Replies `(a(sssida{sv}))` and frees the list.
void cdbus_reply_matches(cdbus_call *call, cdbus_matches *list);

/// GIO's themed icon for the content type `type` (a MIME type), as `g_icon_to_string` writes it
/// (`. GThemedIcon application-pdf x-office-document …`); malloc-allocated (free with `free`),
/// or NULL when GIO has no icon for it or cannot write it as a string.
/// The corresponding C functions are `g_content_type_get_icon` and `g_icon_to_string`.
char *cgio_content_type_icon(const char *type);

#ifdef __cplusplus
}
#endif

#endif
