#include "CXMLReader.h"

#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xmlreader.h>

struct cxml_reader {
    xmlTextReaderPtr reader;
    char *error;
};

static void collect_error(void *context, xmlErrorPtr error) {
    cxml_reader *owner = context;
    if (owner->error != NULL || error == NULL || error->message == NULL) return;
    owner->error = strdup(error->message);
    // One line: libxml2 ends its messages with a newline.
    char *newline = strchr(owner->error, '\n');
    if (newline != NULL) *newline = '\0';
}

cxml_reader *cxml_reader_new(const uint8_t *bytes, size_t length, int recover) {
    if (length > INT32_MAX) return NULL;
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA | XML_PARSE_COMPACT;
    if (recover) options |= XML_PARSE_RECOVER;
    cxml_reader *owner = calloc(1, sizeof(*owner));
    if (owner == NULL) return NULL;
    owner->reader = xmlReaderForMemory((const char *)bytes, (int)length, NULL, NULL, options);
    if (owner->reader == NULL) {
        free(owner);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(owner->reader, collect_error, owner);
    return owner;
}

int cxml_reader_read(cxml_reader *reader) {
    int status = xmlTextReaderRead(reader->reader);
    return status > 0 ? 1 : status == 0 ? 0 : -1;
}

int cxml_reader_node_type(cxml_reader *reader) { return xmlTextReaderNodeType(reader->reader); }

const char *cxml_reader_local_name(cxml_reader *reader) {
    return (const char *)xmlTextReaderConstLocalName(reader->reader);
}

const char *cxml_reader_namespace_uri(cxml_reader *reader) {
    return (const char *)xmlTextReaderConstNamespaceUri(reader->reader);
}

const char *cxml_reader_value(cxml_reader *reader) {
    return (const char *)xmlTextReaderConstValue(reader->reader);
}

int cxml_reader_is_empty_element(cxml_reader *reader) { return xmlTextReaderIsEmptyElement(reader->reader) == 1; }

int cxml_reader_depth(cxml_reader *reader) { return xmlTextReaderDepth(reader->reader); }

char *cxml_reader_attribute(cxml_reader *reader, const char *local_name) {
    char *found = NULL;
    if (xmlTextReaderMoveToFirstAttribute(reader->reader) != 1) return NULL;
    do {
        const xmlChar *name = xmlTextReaderConstLocalName(reader->reader);
        if (name != NULL && strcmp((const char *)name, local_name) == 0) {
            const xmlChar *value = xmlTextReaderConstValue(reader->reader);
            found = strdup(value != NULL ? (const char *)value : "");
            break;
        }
    } while (xmlTextReaderMoveToNextAttribute(reader->reader) == 1);
    xmlTextReaderMoveToElement(reader->reader);
    return found;
}

const char *cxml_reader_error(cxml_reader *reader) { return reader->error; }

void cxml_reader_free(cxml_reader *reader) {
    if (reader == NULL) return;
    xmlFreeTextReader(reader->reader);
    free(reader->error);
    free(reader);
}
