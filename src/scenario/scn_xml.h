/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the scenario reader (scn_scenario.c, scn_xml.c): a scenario file parsed and validated by libxml2, with
 * the first complaint as a simrun message, and the element helpers the reader shares. */
#ifndef SCN_XML_H
#define SCN_XML_H

#include "scn_error.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

/* Where libxml2's error handlers write: the first error wins, later ones (often consequences) are dropped. */
typedef struct scn_sink {
  scn_error_t *err;
  const char *path;
  int failed;
} scn_sink_t;

/* Parses `path` and validates it against the schema, every libxml2 message going to `sink` (the first error wins, in
 * sink->err). Returns the document (the caller frees it), or NULL. The handler stays set: the caller restores the
 * default with xmlSetStructuredErrorFunc(NULL, NULL) once done with the document. */
xmlDoc *scn_xml_load(const char *path, scn_sink_t *sink);

/* Whether `node` is an element named `name`. */
int scn_xml_is_element(const xmlNode *node, const char *name);

/* The line `node` starts on, exact past 65535. */
int scn_xml_line(const xmlNode *node);

#endif
