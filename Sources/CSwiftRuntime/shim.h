// Four reference-counting entry points of the Swift runtime (swift/Runtime/HeapObject.h, C
// calling convention), declared for `Sources/Livery/HeldComponent.swift`, the only file that
// imports this module. They are what `unowned` and `weak` references compile to; Swift code may
// not name them itself. Each takes a native Swift heap object.
#ifndef LIVERY_SWIFT_RUNTIME_SHIM_H
#define LIVERY_SWIFT_RUNTIME_SHIM_H

#include <stdbool.h>

void *swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);
// The object, retained; null when it is being deallocated.
void *swift_tryRetain(void *object);
bool swift_isDeallocating(void *object);

#endif
