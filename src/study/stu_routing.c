/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A platform too big for its routing (stu_routing.h): a zone routed by Floyd with more netpoints than its tables can
 * hold is refused, before SimGrid runs out of memory, naming the routing SimGrid offers for large graphs instead. */
#include "stu_routing.h"
#include "sim_error.h"

#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

/* An open zone: whether Floyd routes it, its netpoints so far, its id and line. */
typedef struct zone {
  int floyd;
  size_t points;
  char id[128];
  int line;
} zone_t;

static int named(const xmlChar *name, const char *const *names)
{
  for (size_t i = 0; names[i]; i++)
    if (xmlStrEqual(name, (const xmlChar *)names[i]))
      return 1;
  return 0;
}

/* The message for zone `z`, too big for Floyd. */
static int refuse(const char *path, const zone_t *z, char *err, size_t errlen)
{
  double gb = 24.0 * (double)z->points * (double)z->points / 1e9;
  snprintf(err, errlen,
           "%s:%d: zone '%s' has %zu hosts, routers and zones under routing=\"Floyd\", whose tables would take %.1f GB "
           "(24 bytes per pair) and %zu^3 steps; Floyd routing is for at most %d: use routing=\"DijkstraCache\" "
           "(SimGrid's routing for large graphs), or a <cluster> whose topology SimGrid routes itself (FAT_TREE, "
           "TORUS, DRAGONFLY)",
           path, z->line, z->id, z->points, gb, z->points, STU_FLOYD_MAX);
  return SIM_EPLATFORM;
}

/* Opens a zone element the reader is on. */
static void open_zone(xmlTextReaderPtr reader, zone_t *z)
{
  xmlChar *routing = xmlTextReaderGetAttribute(reader, (const xmlChar *)"routing");
  xmlChar *id = xmlTextReaderGetAttribute(reader, (const xmlChar *)"id");
  *z = (zone_t){.floyd = routing && xmlStrEqual(routing, (const xmlChar *)"Floyd"),
                .line = (int)xmlGetLineNo(xmlTextReaderCurrentNode(reader))};
  snprintf(z->id, sizeof z->id, "%s", id ? (const char *)id : "");
  xmlFree(routing);
  xmlFree(id);
}

int stu_routing_check(const char *path, char *err, size_t errlen)
{
  static const char *const zones[] = {"zone", "AS", NULL};
  static const char *const points[] = {"host", "router", "zone", "AS", "cluster", "peer", NULL};
  xmlTextReaderPtr reader = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  zone_t stack[MAX_DEPTH];
  int depth = 0;
  int deeper = 0; /* zones beyond MAX_DEPTH, not checked */
  int rc = 0;
  while (reader && rc == 0 && xmlTextReaderRead(reader) == 1) {
    int type = xmlTextReaderNodeType(reader);
    const xmlChar *name = xmlTextReaderConstName(reader);
    int zone = named(name, zones);
    int closes = zone && (type == XML_READER_TYPE_END_ELEMENT ||
                          (type == XML_READER_TYPE_ELEMENT && xmlTextReaderIsEmptyElement(reader)));
    if (type == XML_READER_TYPE_ELEMENT && depth > 0 && named(name, points))
      stack[depth - 1].points++;
    if (type == XML_READER_TYPE_ELEMENT && zone && depth + deeper >= MAX_DEPTH)
      deeper++;
    else if (type == XML_READER_TYPE_ELEMENT && zone)
      open_zone(reader, &stack[depth++]);
    if (closes && deeper > 0)
      deeper--;
    else if (closes && depth > 0) {
      const zone_t *z = &stack[--depth];
      rc = z->floyd && z->points > STU_FLOYD_MAX ? refuse(path, z, err, errlen) : 0;
    }
  }
  xmlFreeTextReader(reader);
  return rc;
}
