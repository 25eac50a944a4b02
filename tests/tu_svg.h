/* Reading back the SVG that simrun writes, for the tests of its pictures: well-formedness and path data. */
#ifndef TU_SVG_H
#define TU_SVG_H

#include <libxml/parser.h>
#include <string.h>

/* Whether the len bytes of text parse as XML (libxml2, no network). */
static inline int tu_svg_well_formed(const char *text, size_t len)
{
  xmlDocPtr doc = xmlReadMemory(text, (int)len, "t.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_HUGE);
  xmlFreeDoc(doc);
  return doc != NULL;
}

/* The d attribute of the first path that starts with `opening` (such as `<path fill="#4e79a7"`), or NULL. */
static inline const char *tu_svg_path_data(const char *text, const char *opening)
{
  const char *at = strstr(text, opening);
  return at ? strstr(at, " d=\"") : NULL;
}

#endif
