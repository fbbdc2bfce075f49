/* The floor of validating a tree of themes: libxml2 parsing every XML file of the tree in one
 * process, with the options the front end uses, and nothing else. Reads file paths, one a line,
 * from standard input; prints the number of files and bytes parsed; exits 1 if one fails.
 *
 *   cc -O2 parse-floor.c $(pkg-config --cflags --libs libxml-2.0) -o parse-floor
 *   find TREE -name '*.xml' | ./parse-floor
 */
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char path[4096];
    long files = 0, bytes = 0;
    int failed = 0;
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        if (!*path) continue;
        xmlDocPtr document = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        if (!document) {
            fprintf(stderr, "%s: does not parse\n", path);
            failed = 1;
            continue;
        }
        FILE *file = fopen(path, "rb");
        if (file) {
            fseek(file, 0, SEEK_END);
            bytes += ftell(file);
            fclose(file);
        }
        xmlFreeDoc(document);
        files += 1;
    }
    printf("%ld files, %ld bytes\n", files, bytes);
    return failed;
}
