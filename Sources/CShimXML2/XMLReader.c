#include "CShimXML2.h"
#include "Guards.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>

struct cxml_reader {
    xmlTextReaderPtr reader;
    char *error;
    /// The document and how it is parsed, for `recover_rest`.
    const uint8_t *bytes;
    size_t length;
    int options;
    int recover;
    /// Nodes read other than ends of elements, and ends read since the last of them.
    size_t starts;
    size_t ends_since_start;
    /// Once the streaming reader has failed: the document libxml2's parser recovered, which
    /// `reader` walks, and the HTML characters that parser was given (`html_entity`).
    xmlDocPtr recovered;
    xmlEntityPtr *entities;
    size_t entity_count;
};

/// Writes the UTF-8 of the character HTML names `name` (`nbsp`, `eacute`) and a NUL into
/// `utf8` (8 bytes); returns its length, 0 when HTML has no such name.
static int html_character(const xmlChar *name, xmlChar *utf8) {
    const htmlEntityDesc *entity = name != NULL ? htmlEntityLookup(name) : NULL;
    int length = entity != NULL ? xmlCopyCharMultiByte(utf8, (int)entity->value) : 0;
    if (length < 0) length = 0;
    utf8[length] = '\0';
    return length;
}

/// The recovering parser's entities: the document's own (never substituted, as in the
/// streaming reader), else HTML's characters, which an XHTML chapter uses without declaring
/// them: handed over as predefined entities, which the parser reads as the character itself.
static xmlEntityPtr html_entity(void *context, const xmlChar *name) {
    xmlParserCtxtPtr parser = context;
    xmlEntityPtr declared = xmlSAX2GetEntity(context, name);
    cxml_reader *owner = parser->_private;
    if (declared != NULL || owner == NULL) return declared;
    for (size_t i = 0; i < owner->entity_count; i++) {
        if (xmlStrEqual(owner->entities[i]->name, name)) return owner->entities[i];
    }
    xmlChar utf8[8];
    int length = html_character(name, utf8);
    if (length == 0) return NULL;
    xmlEntityPtr *grown = realloc(owner->entities, (owner->entity_count + 1) * sizeof(*grown));
    if (grown == NULL) return NULL;
    owner->entities = grown;
    xmlEntityPtr entity = calloc(1, sizeof(*entity));
    if (entity == NULL) return NULL;
    entity->type = XML_ENTITY_DECL;
    entity->etype = XML_INTERNAL_PREDEFINED_ENTITY;
    entity->name = xmlStrdup(name);
    entity->content = xmlStrdup(utf8);
    entity->orig = entity->content;
    entity->length = length;
    owner->entities[owner->entity_count++] = entity;
    return entity;
}

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
    int options = CXML_GUARDS | XML_PARSE_NOCDATA | XML_PARSE_COMPACT;
    if (recover) options |= XML_PARSE_RECOVER;
    cxml_reader *owner = calloc(1, sizeof(*owner));
    if (owner == NULL) return NULL;
    owner->bytes = bytes;
    owner->length = length;
    owner->options = options;
    owner->recover = recover;
    owner->reader = xmlReaderForMemory((const char *)bytes, (int)length, NULL, NULL, options);
    if (owner->reader == NULL) {
        free(owner);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(owner->reader, collect_error, owner);
    return owner;
}

/// libxml2's streaming reader stops at the first well-formedness error even when asked to
/// recover (2.9), and what it had parsed ahead of the error is lost: the text before the
/// error in the same text node, the text of the elements a truncated file leaves open. Its
/// parser does recover: the reader goes on over the document the parser builds, from the node
/// after the last one read. Nodes are matched by count; an end of element may come twice
/// (a walked tree cannot tell `<br/>` from `<br></br>`, so it ends both), which costs readers
/// at most a repeated break.
///
/// Returns what `xmlTextReaderRead` would have: 1 with the reader on the next node, 0 when
/// nothing is left, -1 when the document cannot be recovered.
static int recover_rest(cxml_reader *owner) {
    xmlParserCtxtPtr parser = xmlNewParserCtxt();
    if (parser == NULL) return -1;
    parser->_private = owner;
    parser->sax->getEntity = html_entity;
    xmlDocPtr document = xmlCtxtReadMemory(parser, (const char *)owner->bytes, (int)owner->length, NULL, NULL,
                                           owner->options);
    xmlFreeParserCtxt(parser);
    if (document == NULL) return -1;
    xmlTextReaderPtr walker = xmlReaderWalker(document);
    if (walker == NULL) {
        xmlFreeDoc(document);
        return -1;
    }
    xmlFreeTextReader(owner->reader);
    owner->reader = walker;
    owner->recovered = document;
    size_t starts = 0, ends = 0;
    int status = 1;
    while (starts < owner->starts && (status = xmlTextReaderRead(walker)) == 1) {
        if (xmlTextReaderNodeType(walker) != XML_READER_TYPE_END_ELEMENT) starts++;
    }
    if (status != 1) return status < 0 ? -1 : 0;
    // The next node, past the ends read after the last start.
    while ((status = xmlTextReaderRead(walker)) == 1 && xmlTextReaderNodeType(walker) == XML_READER_TYPE_END_ELEMENT
           && ends < owner->ends_since_start) {
        ends++;
    }
    return status < 0 ? -1 : status;
}

int cxml_reader_read(cxml_reader *reader) {
    int status = xmlTextReaderRead(reader->reader);
    if (status < 0 && reader->recover && reader->recovered == NULL) status = recover_rest(reader);
    if (status <= 0) return status == 0 ? 0 : -1;
    if (xmlTextReaderNodeType(reader->reader) == XML_READER_TYPE_END_ELEMENT) {
        reader->ends_since_start++;
    } else {
        reader->starts++;
        reader->ends_since_start = 0;
    }
    return 1;
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

int cxml_reader_html_character(cxml_reader *reader, char utf8[8]) {
    utf8[0] = '\0';
    if (xmlTextReaderNodeType(reader->reader) != XML_READER_TYPE_ENTITY_REFERENCE) return 0;
    return html_character(xmlTextReaderConstLocalName(reader->reader), (xmlChar *)utf8);
}

const char *cxml_reader_error(cxml_reader *reader) { return reader->error; }

void cxml_reader_free(cxml_reader *reader) {
    if (reader == NULL) return;
    xmlFreeTextReader(reader->reader);
    // A walker does not own the document it walks.
    if (reader->recovered != NULL) xmlFreeDoc(reader->recovered);
    for (size_t i = 0; i < reader->entity_count; i++) {
        xmlFree((xmlChar *)reader->entities[i]->name);
        xmlFree(reader->entities[i]->content);
        free(reader->entities[i]);
    }
    free(reader->entities);
    free(reader->error);
    free(reader);
}
