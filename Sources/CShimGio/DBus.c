#include "CShimGio.h"

#include <gio/gio.h>
#include <glib-unix.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct cdbus_service {
    GDBusConnection *connection;
    cdbus_method_handler handler;
    void *context;
    GPtrArray *nodes;           // GDBusNodeInfo *, kept alive while their objects are registered
    GArray *registrations;      // guint registration ids
    guint owner_id;
    GMainLoop *loop;
    guint idle_seconds;
    guint idle_source;
    int status;
};

struct cdbus_call {
    GDBusMethodInvocation *invocation;  // NULL once answered
    GVariant *parameters;
};

struct cdbus_dictionaries { GVariantBuilder builder; };
struct cdbus_matches { GVariantBuilder builder; };

static char *take_message(GError *error) {
    char *message = strdup(error != NULL ? error->message : "unknown error");
    if (error != NULL) g_error_free(error);
    return message;
}

cdbus_service *cdbus_service_new(cdbus_method_handler handler, void *context, char **error) {
    GError *failure = NULL;
    GDBusConnection *connection;
    // An activated service answers on the bus that started it.
    const char *starter = g_getenv("DBUS_STARTER_ADDRESS");
    if (starter != NULL && starter[0] != '\0') {
        connection = g_dbus_connection_new_for_address_sync(
            starter, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
            NULL, NULL, &failure);
    } else {
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &failure);
    }
    if (connection == NULL) {
        *error = take_message(failure);
        return NULL;
    }
    // The process decides when to stop, not the connection.
    g_dbus_connection_set_exit_on_close(connection, FALSE);
    cdbus_service *service = g_new0(cdbus_service, 1);
    service->connection = connection;
    service->handler = handler;
    service->context = context;
    service->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)g_dbus_node_info_unref);
    service->registrations = g_array_new(FALSE, FALSE, sizeof(guint));
    return service;
}

static gboolean on_idle(gpointer data) {
    cdbus_service *service = data;
    service->idle_source = 0;
    service->status = 0;
    if (service->loop != NULL) g_main_loop_quit(service->loop);
    return G_SOURCE_REMOVE;
}

static void restart_idle_timer(cdbus_service *service) {
    if (service->idle_seconds == 0 || service->loop == NULL) return;
    if (service->idle_source != 0) g_source_remove(service->idle_source);
    service->idle_source = g_timeout_add_seconds(service->idle_seconds, on_idle, service);
}

static void on_method_call(GDBusConnection *connection, const gchar *sender, const gchar *object_path,
                           const gchar *interface_name, const gchar *method_name, GVariant *parameters,
                           GDBusMethodInvocation *invocation, gpointer data) {
    (void)connection; (void)sender; (void)object_path; (void)interface_name; (void)method_name;
    cdbus_service *service = data;
    cdbus_call call = { invocation, parameters };
    service->handler(service->context, &call);
    // Every call gets an answer, even one the handler forgot.
    if (call.invocation != NULL) {
        g_dbus_method_invocation_return_dbus_error(call.invocation, "org.freedesktop.DBus.Error.Failed",
                                                   "the call was not answered");
    }
    restart_idle_timer(service);
}

static const GDBusInterfaceVTable vtable = { on_method_call, NULL, NULL, { 0 } };

int cdbus_service_register(cdbus_service *service, const char *xml, const char *interface_name,
                           const char *object_path, char **error) {
    GError *failure = NULL;
    GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(xml, &failure);
    if (node == NULL) {
        *error = take_message(failure);
        return -1;
    }
    GDBusInterfaceInfo *interface = g_dbus_node_info_lookup_interface(node, interface_name);
    if (interface == NULL) {
        g_dbus_node_info_unref(node);
        *error = strdup("the introspection data has no such interface");
        return -1;
    }
    guint id = g_dbus_connection_register_object(service->connection, object_path, interface, &vtable,
                                                 service, NULL, &failure);
    if (id == 0) {
        g_dbus_node_info_unref(node);
        *error = take_message(failure);
        return -1;
    }
    g_ptr_array_add(service->nodes, node);
    g_array_append_val(service->registrations, id);
    return 0;
}

static void on_name_acquired(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)name;
    restart_idle_timer(data);
}

static void on_name_lost(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)name;
    cdbus_service *service = data;
    service->status = 1;
    if (service->loop != NULL) g_main_loop_quit(service->loop);
}

static gboolean on_signal(gpointer data) {
    cdbus_service *service = data;
    service->status = 0;
    g_main_loop_quit(service->loop);
    return G_SOURCE_CONTINUE;
}

int cdbus_service_run(cdbus_service *service, const char *name, unsigned idle_seconds) {
    // A parent may have started us with these blocked (threads of test runners do): the
    // service must stop on them.
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
    service->loop = g_main_loop_new(NULL, FALSE);
    service->idle_seconds = idle_seconds;
    service->status = 0;
    guint term = g_unix_signal_add(SIGTERM, on_signal, service);
    guint interrupt = g_unix_signal_add(SIGINT, on_signal, service);
    service->owner_id = g_bus_own_name_on_connection(service->connection, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                                     on_name_acquired, on_name_lost, service, NULL);
    g_main_loop_run(service->loop);
    g_source_remove(term);
    g_source_remove(interrupt);
    if (service->idle_source != 0) {
        g_source_remove(service->idle_source);
        service->idle_source = 0;
    }
    g_main_loop_unref(service->loop);
    service->loop = NULL;
    return service->status;
}

void cdbus_service_free(cdbus_service *service) {
    if (service == NULL) return;
    if (service->owner_id != 0) g_bus_unown_name(service->owner_id);
    for (guint i = 0; i < service->registrations->len; i++) {
        g_dbus_connection_unregister_object(service->connection, g_array_index(service->registrations, guint, i));
    }
    g_dbus_connection_flush_sync(service->connection, NULL, NULL);
    g_dbus_connection_close_sync(service->connection, NULL, NULL);
    g_object_unref(service->connection);
    g_array_free(service->registrations, TRUE);
    g_ptr_array_free(service->nodes, TRUE);
    g_free(service);
}

const char *cdbus_call_method(const cdbus_call *call) {
    return g_dbus_method_invocation_get_method_name(call->invocation);
}

const char *cdbus_call_interface(const cdbus_call *call) {
    return g_dbus_method_invocation_get_interface_name(call->invocation);
}

const char *cdbus_call_object_path(const cdbus_call *call) {
    return g_dbus_method_invocation_get_object_path(call->invocation);
}

size_t cdbus_call_argument_count(const cdbus_call *call) {
    return g_variant_n_children(call->parameters);
}

char **cdbus_call_strings(const cdbus_call *call, size_t index) {
    if (index >= g_variant_n_children(call->parameters)) return g_new0(char *, 1);
    GVariant *argument = g_variant_get_child_value(call->parameters, index);
    char **strings;
    if (g_variant_is_of_type(argument, G_VARIANT_TYPE_STRING_ARRAY)) {
        strings = g_variant_dup_strv(argument, NULL);
    } else if (g_variant_is_of_type(argument, G_VARIANT_TYPE_STRING)) {
        strings = g_new0(char *, 2);
        strings[0] = g_variant_dup_string(argument, NULL);
    } else {
        strings = g_new0(char *, 1);
    }
    g_variant_unref(argument);
    return strings;
}

void cdbus_strings_free(char **strings) { g_strfreev(strings); }

static void reply(cdbus_call *call, GVariant *value) {
    if (call->invocation == NULL) {
        if (value != NULL) g_variant_unref(g_variant_ref_sink(value));
        return;
    }
    g_dbus_method_invocation_return_value(call->invocation, value);
    call->invocation = NULL;
}

void cdbus_reply_empty(cdbus_call *call) { reply(call, NULL); }

void cdbus_reply_error(cdbus_call *call, const char *name, const char *message) {
    if (call->invocation == NULL) return;
    g_dbus_method_invocation_return_dbus_error(call->invocation, name, message);
    call->invocation = NULL;
}

void cdbus_reply_strings(cdbus_call *call, const char *const *strings, size_t count) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE_STRING_ARRAY);
    for (size_t i = 0; i < count; i++) g_variant_builder_add(&builder, "s", strings[i]);
    reply(call, g_variant_new("(as)", &builder));
}

void cdbus_reply_string_triples(cdbus_call *call, const char *const *strings, size_t count) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a(sss)"));
    for (size_t i = 0; i < count; i++) {
        g_variant_builder_add(&builder, "(sss)", strings[3 * i], strings[3 * i + 1], strings[3 * i + 2]);
    }
    reply(call, g_variant_new("(a(sss))", &builder));
}

cdbus_dictionaries *cdbus_dictionaries_new(void) {
    cdbus_dictionaries *list = g_new0(cdbus_dictionaries, 1);
    g_variant_builder_init(&list->builder, G_VARIANT_TYPE("aa{sv}"));
    return list;
}

void cdbus_dictionaries_add(cdbus_dictionaries *list, const char *const *keys, const char *const *values, size_t count) {
    GVariantBuilder dictionary;
    g_variant_builder_init(&dictionary, G_VARIANT_TYPE_VARDICT);
    for (size_t i = 0; i < count; i++) {
        g_variant_builder_add(&dictionary, "{sv}", keys[i], g_variant_new_string(values[i]));
    }
    g_variant_builder_add(&list->builder, "a{sv}", &dictionary);
}

void cdbus_reply_dictionaries(cdbus_call *call, cdbus_dictionaries *list) {
    reply(call, g_variant_new("(aa{sv})", &list->builder));
    g_free(list);
}

cdbus_matches *cdbus_matches_new(void) {
    cdbus_matches *list = g_new0(cdbus_matches, 1);
    g_variant_builder_init(&list->builder, G_VARIANT_TYPE("a(sssida{sv})"));
    return list;
}

void cdbus_matches_add(cdbus_matches *list, const char *id, const char *text, const char *icon, int32_t type,
                       double relevance, const char *const *urls, size_t url_count, const char *subtext,
                       const char *category) {
    GVariantBuilder properties;
    g_variant_builder_init(&properties, G_VARIANT_TYPE_VARDICT);
    if (url_count > 0) {
        g_variant_builder_add(&properties, "{sv}", "urls", g_variant_new_strv((const gchar *const *)urls, (gssize)url_count));
    }
    if (subtext != NULL) g_variant_builder_add(&properties, "{sv}", "subtext", g_variant_new_string(subtext));
    if (category != NULL) g_variant_builder_add(&properties, "{sv}", "category", g_variant_new_string(category));
    g_variant_builder_add(&list->builder, "(sssida{sv})", id, text, icon, type, relevance, &properties);
}

void cdbus_reply_matches(cdbus_call *call, cdbus_matches *list) {
    reply(call, g_variant_new("(a(sssida{sv}))", &list->builder));
    g_free(list);
}
