package dev.racelint.analyzer.source;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a source file's bytes: a byte-order mark picks the charset and is dropped; otherwise
 * strict UTF-8, falling back to ISO-8859-1 (every byte decodes) so odd encodings still parse.
 * NUL and other control characters are kept: javac accepts them in comments, literals and (as
 * identifier-ignorable characters) identifiers, so whether a file is Java is the parser's to say.
 */
public record SourceText(String text, Charset charset, boolean fallback) {

    public static SourceText decode(byte[] bytes) {
        if (startsWith(bytes, 0xEF, 0xBB, 0xBF)) {
            return new SourceText(new String(bytes, 3, bytes.length - 3, StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8, false);
        }
        if (startsWith(bytes, 0xFE, 0xFF)) {
            return new SourceText(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE),
                    StandardCharsets.UTF_16BE, false);
        }
        if (startsWith(bytes, 0xFF, 0xFE)) {
            return new SourceText(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE),
                    StandardCharsets.UTF_16LE, false);
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return new SourceText(text, StandardCharsets.UTF_8, false);
        } catch (CharacterCodingException e) {
            return new SourceText(new String(bytes, StandardCharsets.ISO_8859_1),
                    StandardCharsets.ISO_8859_1, true);
        }
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
