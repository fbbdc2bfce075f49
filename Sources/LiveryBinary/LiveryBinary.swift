// The compiled theme format: writer, verifier and memory-mapped reader (see docs/BinaryFormat.md).
