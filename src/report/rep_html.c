/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --html page: the terminal report rendered into a buffer and escaped, the pictures drawn into a temporary folder
 * and inlined, and the per-process point's trace as data for a small script that draws, pans and zooms its timeline
 * on a canvas and describes the interval under the pointer. Nothing on the page refers to anything outside it. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkdtemp, scandir, getdelim */

#include "rep_html.h"
#include "bas_temp.h"
#include "bas_error.h"
#include "rep_dsm_tables.h"
#include "rep_factors.h"
#include "rep_html_tables.h"
#include "rep_layout.h"
#include "rep_phases.h"
#include "rep_pictures.h"
#include "rep_report.h"
#include "rep_summary.h"
#include "rep_svg.h"
#include "rep_wait.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char page_style[] =
    "body{font-family:sans-serif;margin:16px;color:#222}h1{font-size:22px;margin:0 0 8px}"
    "h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #ccc}"
    "h3{font-size:15px;margin:16px 0 4px}"
    "pre{font-size:12px;background:#f6f6f6;padding:8px;overflow-x:auto}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0;display:block;max-width:100%;overflow-x:auto}"
    "th,td{border:1px solid #ccc;padding:2px 6px}"
    "th{background:#eee;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "td.best{font-weight:bold;background:#e3f1e3}.wide{max-width:100%;overflow-x:auto}"
    "nav h2{display:inline;font-size:15px;border:0;margin-right:8px}nav ol{display:inline;padding:0}"
    "nav li{display:inline;margin-right:14px}"
    "#timeline{width:100%;height:600px;border:1px solid #999;cursor:grab;display:block}"
    "#note{font-size:13px;color:#555}"
    "#tip{font-family:monospace;font-size:13px;min-height:1.4em;padding:4px 0}"
    ".legend span{display:inline-block;margin-right:14px;font-size:13px}"
    ".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}"
    "figure{margin:12px 0}figure svg{max-width:100%;height:auto}";

/* Draws the ranks of the run chosen in #run (SIMRUN.runs[i].ranks; per rank: [start, end, category, phase, peer,
 * direction, bytes, sent], time-ordered) that the #ranks filter keeps ("0-3,8"; empty: all), rows[0] of them from the
 * first-shown one, each row labelled with its rank (every n-th where rows are thinner than a 12-px label), between t0
 * and t1 (an interval narrower than a pixel gathered with the others in its pixel column, which takes the colour of
 * the category that took most of it, as the SVG timeline's columns do), with a line per message, drawn from the end
 * that counts it, from its sender's row where its send started to its receiver's at its end (from the lower rank where
 * the direction was not recorded), as rep_timeline draws them, but only when at most MAXLINES are in view: more would
 * cover the states, so #note counts them and says how to see them. The wheel zooms time about the pointer, shift and
 * the wheel zooms the rows about it, a drag pans both, and the line under the canvas describes the interval under the
 * pointer. Sets data-ready, data-timeline (the canvas's box), data-labels (the rank labels drawn) and data-width (once
 * the page is loaded: its scroll width; wider than the window, it scrolls sideways) on <body> when the first drawing is
 * done. For tests, each of which first scrolls the canvas into view ("#view" does only that): "#blank" leaves the
 * canvas empty; "#probe=X,Y" describes the interval at canvas pixel (X, Y) as if the pointer were there; "#selftest"
 * sends the canvas a wheel turn, a drag of 100 px and a shift-wheel turn as a user would and writes the time span
 * before and after the turn, the drag's shift and the rows before and after the shift-wheel turn into data-selftest. */
static const char page_script[] =
    "(function(){\n"
    "var S=SIMRUN,D=S.runs[0],cv=document.getElementById('timeline'),tip=document.getElementById('tip');\n"
    "var note=document.getElementById('note'),filt=document.getElementById('ranks'),MAXLINES=400;\n"
    "var "
    "left=60,t0=0,t1=D.end>0?D.end:1,drag=null,blank=location.hash==='#blank',pick=document.getElementById('run');\n"
    "var dirs=['','sent to','received from'],vis=[],first=0,rows=1;\n"
    "function size(){cv.width=cv.clientWidth;cv.height=cv.clientHeight;}\n"
    "function shown(){var n=D.ranks.length,out=[],parts=filt.value.split(',');\n"
    " for(var i=0;i<parts.length;i++){var m=/^\\s*(\\d+)\\s*(?:-\\s*(\\d+))?\\s*$/.exec(parts[i]);if(!m)continue;\n"
    "  for(var r=+m[1];r<=(m[2]===undefined?+m[1]:+m[2])&&r<n;r++)out.push(r);}\n"
    " if(!out.length)for(r=0;r<n;r++)out.push(r);vis=out;first=0;rows=vis.length;}\n"
    "function xof(t){return left+(t-t0)/(t1-t0)*(cv.width-left);}\n"
    "function tof(x){return t0+(x-left)/(cv.width-left)*(t1-t0);}\n"
    "function rowh(){return (cv.height-20)/rows;}\n"
    "function draw(){var g=cv.getContext('2d'),h=rowh(),at={};g.fillStyle='#fff';g.fillRect(0,0,cv.width,cv.height);\n"
    " if(blank)return;g.font='11px sans-serif';var st=Math.ceil(12/h),nl=0;\n"
    " for(var k=0;k<rows;k++){var r=vis[first+k],iv=D.ranks[r],y=k*h;at[r]=k;g.fillStyle='#222';\n"
    "  if(k%st===0){g.fillText('rank '+r,2,y+Math.min(h,12)/2+4);nl++;}\n"
    "  var px=-1,acc=S.colours.map(function(){return 0;}),hy=Math.max(h-2,1);\n"
    "  var fill=function(){if(px<0)return;var c=0;for(var j=1;j<acc.length;j++)if(acc[j]>acc[c])c=j;\n"
    "   g.fillStyle=S.colours[c];g.fillRect(px,y+1,1,hy);px=-1;acc=acc.map(function(){return 0;});};\n"
    "  for(var i=0;i<iv.length;i++){var a=xof(iv[i][0]),b=xof(iv[i][1]);if(b<left||a>cv.width)continue;\n"
    "   a=Math.max(a,left);if(b-a>=1){fill();g.fillStyle=S.colours[iv[i][2]];g.fillRect(a,y+1,b-a,hy);continue;}\n"
    "   var col=Math.floor(a);if(col!==px){fill();px=col;}acc[iv[i][2]]+=b-a;}fill();}\n"
    " var lines=[];for(k=0;k<rows;k++){r=vis[first+k];iv=D.ranks[r];\n"
    "  for(i=0;i<iv.length;i++){var m=iv[i];if(m[2]!==3||m[4]<0||(m[5]!==2&&(m[5]!==0||m[4]<r)))continue;\n"
    "   if(!(m[4] in at))continue;a=xof(m[7]);b=xof(m[1]);if(b<left||a>cv.width)continue;\n"
    "   var ya=(at[m[4]]+0.5)*h,yb=(k+0.5)*h;lines.push(m[5]===2?[a,ya,b,yb]:[a,yb,b,ya]);}}\n"
    " if(lines.length<=MAXLINES){g.strokeStyle='rgba(34,34,34,0.6)';g.beginPath();\n"
    "  for(i=0;i<lines.length;i++){g.moveTo(lines[i][0],lines[i][1]);g.lineTo(lines[i][2],lines[i][3]);}g.stroke();\n"
    "  note.textContent=lines.length+(lines.length===1?' message':' messages')+\n"
    "   ' in view, each a line from its sender to its receiver.';}\n"
    " else note.textContent=lines.length+' messages in view: hidden, as their lines would cover the states; zoom in "
    "'+\n"
    "  '(wheel), show fewer rows (shift and wheel) or fewer ranks to see them.';\n"
    " g.fillStyle='#222';g.fillText(t0.toPrecision(4)+' s',left,cv.height-5);\n"
    " var s=t1.toPrecision(4)+' s';g.fillText(s,cv.width-g.measureText(s).width-2,cv.height-5);\n"
    " document.body.setAttribute('data-labels',nl);}\n"
    "function find(iv,t){var lo=0,hi=iv.length-1;while(lo<=hi){var m=(lo+hi)>>1;\n"
    " if(iv[m][1]<t)lo=m+1;else if(iv[m][0]>t)hi=m-1;else return iv[m];}return null;}\n"
    "function describe(x,y){var k=Math.floor(y/rowh());if(k<0||k>=rows||x<left)return '';\n"
    " var r=vis[first+k],t=tof(x),v=find(D.ranks[r],t);\n"
    " if(!v)return 'rank '+r+' at '+t.toPrecision(6)+' s: idle (no interval)';\n"
    " var s='rank '+r+' ['+v[0].toPrecision(6)+', '+v[1].toPrecision(6)+'] s: '+S.categories[v[2]]+\n"
    "  ', phase '+D.phases[v[3]];if(v[4]>=0)s+=', '+(v[5]?dirs[v[5]]:'peer')+' rank '+v[4];\n"
    " if(v[6]>0)s+=', '+v[6]+' bytes';return s;}\n"
    "function pos(e){var b=cv.getBoundingClientRect();return [e.clientX-b.left,e.clientY-b.top];}\n"
    "function zoomrows(y,k){var at=first+y/rowh(),n=Math.min(vis.length,Math.max(1,Math.round(rows*k)));\n"
    " if(n===rows)n=Math.min(vis.length,Math.max(1,rows+(k<1?-1:1)));\n"
    " first=Math.min(vis.length-n,Math.max(0,Math.round(at-(at-first)*n/rows)));rows=n;}\n"
    "cv.addEventListener('wheel',function(e){e.preventDefault();var p=pos(e),k=e.deltaY<0?0.8:1.25;\n"
    " if(e.shiftKey)zoomrows(p[1],k);else{var t=tof(Math.max(p[0],left));t0=t-(t-t0)*k;t1=t+(t1-t)*k;}draw();});\n"
    "cv.addEventListener('mousedown',function(e){var p=pos(e);drag={x:p[0],y:p[1],t0:t0,t1:t1,first:first};\n"
    " cv.style.cursor='grabbing';});\n"
    "window.addEventListener('mouseup',function(){drag=null;cv.style.cursor='grab';});\n"
    "cv.addEventListener('mousemove',function(e){var p=pos(e);if(drag){var dt=(p[0]-drag.x)/(cv.width-left)*\n"
    " (drag.t1-drag.t0);t0=drag.t0-dt;t1=drag.t1-dt;\n"
    " first=Math.min(vis.length-rows,Math.max(0,drag.first-Math.round((p[1]-drag.y)/rowh())));draw();}\n"
    " tip.textContent=describe(p[0],p[1]);});\n"
    "function whole(){t0=0;t1=D.end>0?D.end:1;shown();draw();}\n"
    "cv.addEventListener('dblclick',whole);\n"
    "pick.addEventListener('change',function(){D=S.runs[pick.selectedIndex];tip.textContent='';whole();});\n"
    "filt.addEventListener('change',whole);\n"
    "window.addEventListener('resize',function(){size();draw();});\n"
    "size();shown();draw();var q=/^#probe=(\\d+),(\\d+)$/.exec(location.hash);\n"
    "if(q)tip.textContent=describe(+q[1],+q[2]);\n"
    "var b=cv.getBoundingClientRect();document.body.setAttribute('data-timeline',\n"
    " [Math.round(b.left),Math.round(b.top),Math.round(b.width),Math.round(b.height)].join(','));\n"
    "if(location.hash==='#selftest'){var cx=b.left+b.width/2,cy=b.top+b.height/2,span0=t1-t0;\n"
    " cv.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,clientX:cx,clientY:cy,bubbles:true,cancelable:true}));\n"
    " var span1=t1-t0,from=t0;\n"
    " cv.dispatchEvent(new MouseEvent('mousedown',{clientX:cx,clientY:cy,bubbles:true}));\n"
    " cv.dispatchEvent(new MouseEvent('mousemove',{clientX:cx+100,clientY:cy,bubbles:true}));\n"
    " window.dispatchEvent(new MouseEvent('mouseup',{bubbles:true}));var moved=t0-from,rows0=rows;\n"
    " cv.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,shiftKey:true,clientX:cx,clientY:cy,bubbles:true,\n"
    "  cancelable:true}));\n"
    " document.body.setAttribute('data-selftest',[span0,span1,moved,rows0,rows,cv.width-left].join(','));}\n"
    "window.addEventListener('load',function(){\n"
    " document.body.setAttribute('data-width',document.documentElement.scrollWidth);});\n"
    "document.body.setAttribute('data-ready','1');\n"
    "})();\n";

/* A JavaScript string literal of `text` that cannot end the script element ('<' as \u003c). */
static void put_js_string(FILE *out, const char *text)
{
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20 || *c == '<')
      fprintf(out, "\\u%04x", *c);
    else
      fputc(*c, out);
  }
  fputc('"', out);
}

/* `len` bytes of `text` written by `put`, with every absolute path cut to its file name ("/home/a/t800.xml" gives
 * "t800.xml"): the page is shared, and the folders it was made in are nobody else's business nor valid elsewhere. A
 * path is a word that starts with '/' and holds another '/'. */
static void cut_folders(FILE *out, const char *text, size_t len, void (*put)(FILE *, const char *, size_t))
{
  size_t i = 0, from = 0;
  while (i < len) {
    int word_start = text[i] == '/' && (i == 0 || strchr(" \t\n('\"=:", text[i - 1]));
    size_t end = i;
    while (word_start && end < len && !strchr(" \t\n)'\",;", text[end]))
      end++;
    size_t last = end;
    while (last > i + 1 && text[last - 1] != '/')
      last--;
    if (word_start && last > i + 1) { /* another '/' after the first: a path, its file name from `last` */
      put(out, text + from, i - from);
      from = last;
      i = end;
    } else
      i++;
  }
  put(out, text + from, len - from);
}

/* `len` bytes of `text`, escaped, folders cut (cut_folders). */
static void put_without_folders(FILE *out, const char *text, size_t len)
{
  cut_folders(out, text, len, rep_html_escaped);
}

static void put_plain(FILE *out, const char *text, size_t len)
{
  fwrite(text, 1, len, out);
}

/* A <pre> block of `len` bytes of `text`, folders cut (put_without_folders). */
static void put_pre(FILE *out, const char *text, size_t len)
{
  fputs("<pre>", out);
  put_without_folders(out, text, len);
  fputs("</pre>\n", out);
}

/* A <pre> block of what `write` prints for `study` (the terminal report itself, so the figures are the same). */
static int put_rendered(FILE *out, const stu_study_t *study, void (*write)(FILE *, const stu_study_t *))
{
  char *text = NULL;
  size_t len = 0;
  FILE *buffer = open_memstream(&text, &len);
  if (!buffer)
    return -1;
  write(buffer, study);
  if (fclose(buffer) != 0) {
    free(text);
    return -1;
  }
  put_pre(out, text, len);
  free(text);
  return 0;
}

/* Whether point `point` has a timeline to show (the per-process p's points; the runs simrun analyse read whole). */
static int has_intervals(const stu_point_t *point)
{
  return point->pixels != NULL;
}

/* "broadcast = neighbour, p = 4": the swept parameters' values of `point`. */
static void put_point_label(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  int first = 1;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].swept || s->params[j].role == SCN_ROLE_PROCESSES) {
      fprintf(out, "%s%s = ", first ? "" : ", ", s->params[j].name);
      rep_html_escaped(out, point->values[j], strlen(point->values[j]));
      first = 0;
    }
}

/* One segment as the script's data: [start, end, category, phase, peer, direction, bytes, its send's start]. */
static void put_segment(FILE *out, int first, const met_segment_t *seg)
{
  fprintf(out, "%s[%.9g,%.9g,%d,%d,%d,%d,%.9g,%.9g]", first ? "" : ",", seg->start, seg->end, (int)seg->category,
          seg->phase, seg->peer, (int)seg->dir, seg->bytes, seg->sent);
}

/* One run as the script's data: its end, phases and every rank's segments (met_pixels.h: every interval of a short
 * run, a long one decimated to columns). */
static void put_run_data(FILE *out, const met_pixels_t *pixels)
{
  fprintf(out, "{end:%.9g,phases:[", met_pixels_end(pixels));
  for (int ph = 0; ph < met_pixels_phase_count(pixels); ph++) {
    put_js_string(out, met_pixels_phase_name(pixels, ph));
    fputs(ph + 1 < met_pixels_phase_count(pixels) ? "," : "", out);
  }
  fputs("],ranks:[\n", out);
  for (int r = 0; r < met_pixels_nranks(pixels); r++) {
    size_t n;
    const met_segment_t *seg = met_pixels_segments(pixels, r, &n);
    fputc('[', out);
    for (size_t i = 0; i < n; i++)
      put_segment(out, i == 0, &seg[i]);
    fputs(r + 1 < met_pixels_nranks(pixels) ? "],\n" : "]]}", out);
  }
}

/* The script's data: the categories, their colours, and every point with a timeline. */
static void put_trace_data(FILE *out, const stu_study_t *study)
{
  fputs("var SIMRUN={categories:[", out);
  for (int c = 0; c < MET_CAT_COUNT; c++) {
    put_js_string(out, met_category_name((met_category_t)c));
    fputs(c + 1 < MET_CAT_COUNT ? "," : "],colours:[", out);
  }
  for (int c = 0; c < MET_CAT_COUNT; c++)
    fprintf(out, "\"%s\"%s", rep_svg_category_colour((met_category_t)c), c + 1 < MET_CAT_COUNT ? "," : "],runs:[\n");
  int first = 1;
  for (size_t i = 0; i < study->npoints; i++)
    if (has_intervals(&study->points[i])) {
      fputs(first ? "" : ",\n", out);
      put_run_data(out, study->points[i].pixels);
      first = 0;
    }
  fputs("]};\n", out);
}

/* The line that says how the point's run is decimated for the page (met_pixels_page_column). */
static void put_decimated(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  fputs("<p>Decimated for this page: the run of ", out);
  put_point_label(out, study, point);
  fprintf(out,
          ", %zu intervals, more than the %d this page shows whole, is drawn in %.0f columns a rank: an interval "
          "shorter than a column is merged with its neighbours into the category that took most of the column, and "
          "its message is not drawn; its Paje trace or OTF2 archive (--paje, --otf2) has them all, for ViTE or "
          "Vampir.</p>\n",
          met_pixels_intervals(point->pixels), MET_PAGE_WHOLE,
          met_pixels_end(point->pixels) / met_pixels_page_column(point->pixels));
}

/* The timeline section: a choice of run, the legend, the canvas, the line describing the interval under the pointer
 * and the script. */
static void put_timeline(FILE *out, const stu_study_t *study)
{
  size_t runs = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    if (!has_intervals(&study->points[i]))
      continue;
    runs++;
    if (met_pixels_page_column(study->points[i].pixels) > 0)
      put_decimated(out, study, &study->points[i]);
  }
  if (runs == 0) {
    fputs(study->facts.skeleton
              ? "<p>No timeline: it shows the runs of the per-process p (--per-process P).</p>\n"
              : "<p>No timeline: it shows the runs whose intervals were kept (a run whose timelines exceed 32 MiB "
                "is read as per-rank sums: docs/analyse.md, \"One pass, bounded memory\").</p>\n",
          out);
    return;
  }
  fputs("<p>A row per rank coloured by category. Mouse wheel: zoom in time; shift and wheel: zoom the rows; drag: pan; "
        "double click: the whole run.</p>\n"
        "<p><label>Run: <select id=\"run\">",
        out);
  for (size_t i = 0; i < study->npoints; i++)
    if (has_intervals(&study->points[i])) {
      fputs("<option>", out);
      put_point_label(out, study, &study->points[i]);
      fputs("</option>", out);
    }
  fputs("</select></label> <label>Ranks: <input id=\"ranks\" size=\"12\" placeholder=\"all, or 0-3,8\"></label></p>\n"
        "<p class=\"legend\">",
        out);
  for (int c = 0; c < MET_CAT_COUNT; c++)
    fprintf(out, "<span><i style=\"background:%s\"></i>%s</span>", rep_svg_category_colour((met_category_t)c),
            met_category_name((met_category_t)c));
  fputs("</p>\n<canvas id=\"timeline\"></canvas>\n<div id=\"tip\"></div>\n<div id=\"note\"></div>\n<script>\n", out);
  put_trace_data(out, study);
  fputs(page_script, out);
  fputs("</script>\n", out);
}

static int svg_file(const struct dirent *entry)
{
  size_t len = strlen(entry->d_name);
  return len > 4 && strcmp(entry->d_name + len - 4, ".svg") == 0;
}

/* An SVG picture with its ids and references to them prefixed by `prefix`: each picture numbers its clip paths from 1,
 * and in one document an id must be unique, or every picture would clip to the first one's area. */
static void put_svg_text(FILE *out, const char *line, const char *prefix)
{
  static const char *const marks[] = {"id=\"", "url(#", "href=\"#"};
  while (*line) {
    const char *next = NULL;
    size_t mark = 0;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
      const char *at = strstr(line, marks[i]);
      if (at && (!next || at < next)) {
        next = at;
        mark = strlen(marks[i]);
      }
    }
    if (!next) {
      fputs(line, out);
      return;
    }
    fprintf(out, "%.*s%s", (int)(next - line + mark), line, prefix);
    line = next + mark;
  }
}

/* Inlines picture `name` of folder `dir` (without its XML declaration) as figure `index` and removes it; with out
 * NULL, only removes it. */
static int put_picture(FILE *out, const char *dir, const char *name, int index)
{
  char path[4096], prefix[32];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  snprintf(prefix, sizeof prefix, "fig%d-", index);
  FILE *in = out ? fopen(path, "r") : NULL;
  char *text = NULL;
  size_t size = 0;
  if (!in)
    return out ? -1 : unlink(path);
  ssize_t len = getdelim(&text, &size, '\0', in); /* the whole file: a picture holds no NUL */
  fclose(in);
  if (len < 0) {
    free(text);
    return -1;
  }
  const char *body = strncmp(text, "<?xml", 5) == 0 && strchr(text, '\n') ? strchr(text, '\n') + 1 : text;
  fprintf(out, "<figure id=\"");
  rep_html_escaped(out, name, strlen(name) - 4);
  fputs("\">\n", out);
  put_svg_text(out, body, prefix);
  fputs("</figure>\n", out);
  free(text);
  return unlink(path);
}

/* The place of picture `name` on the page: the report's order (the figures against p, the per-process views, the
 * bottleneck views), pictures of none of these kinds last. */
static size_t picture_rank(const char *name)
{
  static const char *const kinds[] = {"time",        "references",  "replay",        "speedup",          "efficiency",
                                      "ovh",         "granularity", "overall",       "processes",        "timeline",
                                      "wait-states", "components",  "subcomponents", "component-shares", "bratios",
                                      "ratios",      "grids"};
  char mark[40];
  size_t k = 0;
  for (; k < sizeof kinds / sizeof kinds[0]; k++) {
    snprintf(mark, sizeof mark, "-%s-", kinds[k]);
    int found = strstr(name, mark) != NULL;
    snprintf(mark, sizeof mark, "-%s.", kinds[k]);
    if (found || strstr(name, mark))
      break;
  }
  return k;
}

static int picture_order(const struct dirent **a, const struct dirent **b)
{
  size_t ra = picture_rank((*a)->d_name), rb = picture_rank((*b)->d_name);
  return ra != rb ? (ra < rb ? -1 : 1) : strcmp((*a)->d_name, (*b)->d_name);
}

/* Whether `name` is the factor x factor picture, which leads the page (put_factors) rather than sitting here. */
static int is_factors_picture(const char *name)
{
  static const char suffix[] = "-factors.svg";
  size_t len = strlen(name);
  return len > sizeof suffix - 1 && strcmp(name + len - (sizeof suffix - 1), suffix) == 0;
}

/* Inlines every picture in `dir` in the report's order but the factor x factor one, removing each (only removing them
 * with out NULL); 0 or -1. */
static int put_pictures(FILE *out, const char *dir)
{
  struct dirent **names = NULL;
  int n = scandir(dir, &names, svg_file, picture_order);
  int rc = n < 0 ? -1 : 0;
  for (int i = 0; i < n; i++) {
    rc = rc == 0 ? put_picture(is_factors_picture(names[i]->d_name) ? NULL : out, dir, names[i]->d_name, i) : rc;
    free(names[i]);
  }
  free(names);
  return rc;
}

/* rep_pictures' list, escaped, naming this page instead of the temporary folder the pictures were drawn in. */
static void put_log(FILE *out, const char *log, const char *dir)
{
  for (const char *at; (at = strstr(log, dir)); log = at + strlen(dir)) {
    put_without_folders(out, log, (size_t)(at - log));
    fputs("this page", out);
  }
  put_without_folders(out, log, strlen(log));
}

/* Draws the pictures into a temporary folder, inlines them with rep_pictures' list of fits, and removes the folder. */
static int put_pictures_section(FILE *out, const stu_study_t *study, char *err, size_t errlen)
{
  const char *tmp = bas_temp_dir();
  char dir[4096];
  char *log = NULL;
  size_t len = 0;
  snprintf(dir, sizeof dir, "%s/simrun-html-XXXXXX", tmp);
  FILE *buffer = open_memstream(&log, &len);
  if (!buffer || !mkdtemp(dir)) {
    snprintf(err, errlen,
             "cannot make a temporary folder for the pictures of the HTML page in '%s'; set TMPDIR to a "
             "writable folder",
             tmp);
    if (buffer)
      fclose(buffer);
    free(log);
    return -1;
  }
  if (rep_file_guard_tree(dir) != 0) { /* removed if a signal ends the run meanwhile */
    snprintf(err, errlen, "out of memory");
    fclose(buffer);
    free(log);
    rmdir(dir);
    return -1;
  }
  int rc = rep_pictures(study, dir, buffer, err, errlen);
  fclose(buffer);
  fputs("<h2 id=\"pictures\">Pictures</h2>\n<pre>", out);
  put_log(out, log ? log : "", dir);
  fputs("</pre>\n", out);
  if (put_pictures(out, dir) != 0 && rc == 0) {
    snprintf(err, errlen, "cannot read back the pictures of the HTML page from '%s'", dir);
    rc = -1;
  }
  put_pictures(NULL, dir); /* after a failure: remove what is left */
  rmdir(dir);
  rep_file_unguard_tree(dir);
  free(log);
  return rc;
}

/* The page's sections, for the table of contents: the summary first (the terminal report's, issue 45 item 3), a
 * measured study's runs as the command described them, then the factor x factor view (which configuration is best at
 * each p), then the interactive timeline, where it is seen without scrolling, then the report's order (its tables, the
 * pictures of --svg, the whole text); `shown` says which this study has. */
static const struct section {
  const char *id, *title;
} sections[] = {{"summary", "Summary"},
                {"runs", "Measured runs"},
                {"factors", "Factors"},
                {"timeline-section", "Timeline"},
                {"points", "Results by point"},
                {"processes", "Per process"},
                {"messages", "Message times"},
                {"references", "Reference figures"},
                {"bottlenecks", "Bottleneck analysis"},
                {"model", "Model"},
                {"profiles", "DSM time profiles"},
                {"waits", "DSM wait map"},
                {"wait-states", "Wait states"},
                {"phases", "Phases"},
                {"pictures", "Pictures"},
                {"report", "The terminal report"}};
enum {
  SEC_SUMMARY,
  SEC_RUNS,
  SEC_FACTORS,
  SEC_TIMELINE,
  SEC_POINTS,
  SEC_PROCESSES,
  SEC_MESSAGES,
  SEC_REFERENCES,
  SEC_BOTTLENECKS,
  SEC_MODEL,
  SEC_PROFILES,
  SEC_WAITS,
  SEC_WAIT_STATES,
  SEC_PHASES,
  SEC_PICTURES,
  SEC_REPORT,
  SEC_COUNT
};

static void put_heading(FILE *out, int section)
{
  fprintf(out, "<h2 id=\"%s\">%s</h2>\n", sections[section].id, sections[section].title);
}

static void put_contents(FILE *out, const int shown[SEC_COUNT])
{
  fputs("<nav><h2 id=\"contents\">Contents</h2><ol>", out);
  for (int k = 0; k < SEC_COUNT; k++)
    if (shown[k])
      fprintf(out, "<li><a href=\"#%s\">%s</a></li>", sections[k].id, sections[k].title);
  fputs("</ol></nav>\n", out);
}

static rep_at_t *profile_rows(const stu_study_t *study, size_t *count)
{
  return rep_profiles_rows(study, NULL, NULL, count);
}

static rep_at_t *wait_map_rows(const stu_study_t *study, size_t *count)
{
  return rep_waits_rows(study, NULL, count);
}

static rep_at_t *wait_state_rows(const stu_study_t *study, size_t *count)
{
  return rep_wait_states_rows(study, NULL, 0, count);
}

/* A view's schema over all its rows (none: no table), as the CSV's table of the same name. */
static void put_schema(FILE *out, const stu_study_t *study, const rep_schema_t *schema,
                       rep_at_t *(*rows)(const stu_study_t *, size_t *))
{
  size_t count;
  rep_at_t *at = rows(study, &count);
  if (at)
    rep_html_schema_table(out, schema, REP_IN_HTML, at, count);
  free(at);
}

static void put_profiles(FILE *out, const stu_study_t *study)
{
  put_schema(out, study, &rep_profiles_schema, profile_rows);
}

static void put_wait_map(FILE *out, const stu_study_t *study)
{
  put_schema(out, study, &rep_waits_schema, wait_map_rows);
}

static void put_wait_states(FILE *out, const stu_study_t *study)
{
  put_schema(out, study, &rep_wait_states_schema, wait_state_rows);
}

static rep_at_t *phase_rows(const stu_study_t *study, size_t *count)
{
  return rep_phases_rows(study, NULL, count);
}

static void put_phases(FILE *out, const stu_study_t *study)
{
  put_schema(out, study, &rep_phases_schema, phase_rows);
}

/* The tables: the points, and the per-process, message-time, reference, bottleneck and model figures, the DSM profiles
 * and wait map, the wait states and a measured run's phases where the study has them. */
static void put_tables(FILE *out, const stu_study_t *study, const int shown[SEC_COUNT])
{
  static void (*const tables[])(FILE *, const stu_study_t *) = {[SEC_POINTS] = rep_html_points,
                                                                [SEC_PROCESSES] = rep_html_processes,
                                                                [SEC_MESSAGES] = rep_html_messages,
                                                                [SEC_REFERENCES] = rep_html_references,
                                                                [SEC_BOTTLENECKS] = rep_html_bottlenecks,
                                                                [SEC_MODEL] = rep_html_model,
                                                                [SEC_PROFILES] = put_profiles,
                                                                [SEC_WAITS] = put_wait_map,
                                                                [SEC_WAIT_STATES] = put_wait_states,
                                                                [SEC_PHASES] = put_phases};
  for (int k = SEC_POINTS; k < SEC_PICTURES; k++)
    if (shown[k]) {
      put_heading(out, k);
      tables[k](out, study);
    }
}

/* The factor x factor section: its tables and picture (rep_factors.h), which the pictures' section then leaves out. */
static int put_factors(FILE *out, const stu_study_t *study, const stu_factors_t *factors)
{
  put_heading(out, SEC_FACTORS);
  rep_factors_html(out, study, factors);
  fputs("<figure id=\"factors-picture\">\n", out);
  int rc = rep_factors_svg(out, study, factors);
  fputs("</figure>\n", out);
  return rc;
}

/* The terminal report's summary, from the same struct (rep_summary.h), as it fits 80 columns. */
static void summary_text(FILE *out, const stu_study_t *study)
{
  rep_summary_t summary;
  if (rep_summary_make(study, &summary) == 0)
    rep_summary_print(out, study, &summary, 80);
  rep_summary_free(&summary);
}

static int put_summary(FILE *out, const stu_study_t *study)
{
  put_heading(out, SEC_SUMMARY);
  return put_rendered(out, study, summary_text);
}

/* The command's lines on the measured runs (stu_study_t.runs_text), folders cut, then laid out in 80 columns as the
 * summary is (rep_fit_lines): cut after, a long folder's name left a short line. 0, or -1 when out of memory. */
static int put_runs(FILE *out, const stu_study_t *study)
{
  char *cut = NULL, *fitted = NULL;
  size_t cut_len = 0, fitted_len = 0;
  FILE *stream = open_memstream(&cut, &cut_len);
  if (!stream)
    return -1;
  cut_folders(stream, study->runs_text, strlen(study->runs_text), put_plain);
  int rc = fclose(stream) == 0 && (stream = open_memstream(&fitted, &fitted_len)) ? 0 : -1;
  if (rc == 0) {
    rep_fit_lines(stream, cut, 80);
    rc = fclose(stream) == 0 ? 0 : -1;
  }
  if (rc == 0) {
    put_heading(out, SEC_RUNS);
    put_pre(out, fitted, fitted_len);
  }
  free(cut);
  free(fitted);
  return rc;
}

int rep_html(FILE *out, const stu_study_t *study, char *err, size_t errlen)
{
  const char *name = study->scenario->name;
  stu_factors_t factors;
  int has_factors = stu_factors_collect(study, &factors);
  const int shown[SEC_COUNT] = {stu_has_view(study, MET_VIEW_LOST_CYCLES),
                                study->runs_text != NULL,
                                has_factors == 1,
                                1,
                                1,
                                rep_html_has_processes(study),
                                stu_has_view(study, MET_VIEW_MESSAGES),
                                rep_html_has_references(study),
                                rep_html_has_bottlenecks(study),
                                rep_has_model(study),
                                stu_has_view(study, MET_VIEW_CAUSE_EFFECT),
                                stu_has_view(study, MET_VIEW_CAUSE_EFFECT),
                                rep_wait_any(study),
                                rep_phases_any(study),
                                1,
                                1};
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>simrun: ", out);
  rep_html_escaped(out, name, strlen(name));
  fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>simrun: ", page_style);
  rep_html_escaped(out, name, strlen(name));
  fputs("</h1>\n", out);
  put_contents(out, shown);
  int rc = shown[SEC_SUMMARY] ? put_summary(out, study) : 0;
  rc = rc || (shown[SEC_RUNS] && put_runs(out, study) != 0) ? -1 : 0;
  rc = rc || has_factors < 0 || (has_factors == 1 && put_factors(out, study, &factors) != 0) ? -1 : 0;
  stu_factors_free(&factors);
  put_heading(out, SEC_TIMELINE);
  put_timeline(out, study);
  put_tables(out, study, shown);
  rc = rc ? rc : put_pictures_section(out, study, err, errlen);
  put_heading(out, SEC_REPORT);
  if (rc != 0 || put_rendered(out, study, rep_print) != 0) {
    if (!*err)
      snprintf(err, errlen, "out of memory while writing the HTML page");
    return BAS_EIO;
  }
  fputs("</body>\n</html>\n", out);
  if (ferror(out)) {
    snprintf(err, errlen, "writing the HTML page failed");
    return BAS_EIO;
  }
  return 0;
}
