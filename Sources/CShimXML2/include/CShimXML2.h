#ifndef CXML_H
#define CXML_H

// libxml2 for the extraction worker, the one way Swift reaches it: HTML and XML to text
// through its SAX parsers (XMLText.c), and its streaming reader for office, EPUB and XMP parts
// (XMLReader.c). Only `searchlight-extractor` links it.
//
// libxml2's headers include ICU's (Debian builds it with ICU), which collide with Foundation's
// own copy when imported into Swift: they are included only in the .c files.
//
// Safety, the same for both (Guards.h): no entity is expanded, no DTD or external entity is
// loaded, no network is used (XML_PARSE_NONET), errors are collected or recovered from
// silently, never printed.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Text of HTML and XML (XMLText.c)
//
// No tree is built, so a document nested 100 000 deep costs no recursion, and the parse stops
// as soon as the text reaches its limit. An undeclared or user-declared entity is dropped,
// which defuses "billion laughs".

/// What a parse found. Strings are malloc-allocated, NUL-terminated UTF-8, or NULL;
/// release with `cxml_document_clear`.
typedef struct {
    /// The visible text: whitespace collapsed, blocks on lines of their own.
    char *text;
    size_t text_length;
    /// Whether the parse stopped because the text passed its limit.
    int truncated;
    /// HTML `<title>`, or XML's first `dc:title`.
    char *title;
    /// HTML `<meta name="author">`, or XML's `dc:creator` elements one per line.
    char *authors;
    /// HTML `<meta name="keywords">`, or XML's `dc:subject` elements one per line.
    char *keywords;
    /// HTML `<meta name="description">`, or XML's first `dc:description`.
    char *description;
    /// Nonzero when libxml2 could not start parsing at all.
    int failed;
} cxml_document;

/// Parses HTML given as UTF-8 (any `<meta charset>` inside is ignored: the caller decoded
/// the bytes already). Stops once the text is longer than `text_limit` bytes. Scripts,
/// styles and templates are skipped.
void cxml_extract_html(const char *utf8, size_t length, size_t text_limit, cxml_document *document);

/// Parses XML in the encoding it declares (UTF-8 by default; BOMs are honoured), or as UTF-8
/// whatever it declares when `ignore_declared_encoding` is nonzero (the caller decoded it).
/// Text nodes and CDATA become the text; Dublin Core `title`, `creator`, `subject` and
/// `description` elements fill the metadata. Stops once the text is longer than `text_limit`.
/// A damaged file keeps the text read before the damage; one cut short keeps its text up to
/// the cut, also inside an unclosed CDATA section (a feed's last `<description>`).
void cxml_extract_xml(const char *bytes, size_t length, size_t text_limit, int ignore_declared_encoding,
                      cxml_document *document);

/// Frees what `document` owns and zeroes it.
void cxml_document_clear(cxml_document *document);

// MARK: - The streaming reader (XMLReader.c)

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
