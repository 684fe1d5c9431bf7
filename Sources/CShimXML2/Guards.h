#ifndef CXML_GUARDS_H
#define CXML_GUARDS_H

#include <libxml/parser.h>

// The options every libxml2 parse of this target starts from (the SAX parsers of XMLText.c and
// the streaming reader of XMLReader.c): nothing from the network, no errors or warnings printed.
// Deliberately absent everywhere: XML_PARSE_NOENT (expand entities), XML_PARSE_DTDLOAD,
// XML_PARSE_DTDATTR, XML_PARSE_DTDVALID, XML_PARSE_XINCLUDE, XML_PARSE_HUGE (which lifts
// libxml2's amplification limits).
#define CXML_GUARDS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

#endif
