#ifndef CXMLREADER_H
#define CXMLREADER_H

// A small C layer over libxml2's streaming reader for the extraction worker.
//
// libxml2's headers include ICU's (Debian builds it with ICU), which collide with
// Foundation's own copy when imported into Swift; this target includes them only in
// its .c file and hands out an opaque reader. Only `searchlight-extractor` links it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cxml_reader cxml_reader;

/// The kinds of node the reader stops on (libxml2's XML_READER_TYPE_* values).
typedef enum {
    CXML_ELEMENT = 1,
    CXML_TEXT = 3,
    CXML_CDATA = 4,
    CXML_WHITESPACE = 13,
    CXML_SIGNIFICANT_WHITESPACE = 14,
    CXML_END_ELEMENT = 15,
} cxml_node_type;

/// A reader over `length` bytes at `bytes` (which must outlive the reader), or NULL.
///
/// No network, no external DTD, no entity substitution (references stay references, so a
/// "billion laughs" expands nothing), libxml2's amplification limits on, errors collected
/// instead of printed. `recover` reads on past well-formedness errors and to the end of a
/// truncated document: after the streaming reader's first error, over the document libxml2's
/// parser recovers (from the node after the last one read), in which HTML's named characters
/// (`&nbsp;`, `&eacute;`), undeclared in XML, stand for themselves.
cxml_reader *cxml_reader_new(const uint8_t *bytes, size_t length, int recover);

/// Moves to the next node: 1, 0 at the end, -1 on an error (see `cxml_reader_error`).
int cxml_reader_read(cxml_reader *reader);

int cxml_reader_node_type(cxml_reader *reader);
/// The node's name without its prefix, or NULL. Valid until the next read.
const char *cxml_reader_local_name(cxml_reader *reader);
/// The node's namespace URI, or NULL. Valid until the next read.
const char *cxml_reader_namespace_uri(cxml_reader *reader);
/// A text node's text, or NULL. Valid until the next read.
const char *cxml_reader_value(cxml_reader *reader);
int cxml_reader_is_empty_element(cxml_reader *reader);
int cxml_reader_depth(cxml_reader *reader);

/// The current element's attribute with this local name in any namespace, malloc-allocated
/// (free with `free`), or NULL.
char *cxml_reader_attribute(cxml_reader *reader, const char *local_name);

/// When the node is a reference to an entity that HTML names (`&nbsp;`, `&eacute;`, left as a
/// reference when a DOCTYPE may declare it), writes that character's UTF-8 and a NUL into
/// `utf8` and returns its length; else 0.
int cxml_reader_html_character(cxml_reader *reader, char utf8[8]);

/// libxml2's first error message on this reader (one line), or NULL.
const char *cxml_reader_error(cxml_reader *reader);

void cxml_reader_free(cxml_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
