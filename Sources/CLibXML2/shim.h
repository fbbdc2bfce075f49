#ifndef LIVERY_CLIBXML2_SHIM_H
#define LIVERY_CLIBXML2_SHIM_H

// libxml2 built with ICU declares ICU types that clash with the ones Foundation brings in
// ("'UErrorCode' has different definitions"). Livery never uses libxml2's ICU encoders
// (theme files must be UTF-8), so the ICU part of the headers is switched off.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#endif
