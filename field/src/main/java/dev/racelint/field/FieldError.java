package dev.racelint.field;

/** A problem with the corpus files or a snapshot, said with the file and line it is at. */
final class FieldError extends RuntimeException {
    FieldError(String message) {
        super(message);
    }
}
