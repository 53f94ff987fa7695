package dev.racelint.analyzer.finding;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Stable finding identities: rule + enclosing method signature + normalised statement (+ what
 * distinguishes findings on the same statement), never line numbers, so moving code keeps them.
 */
public final class Fingerprints {
    private Fingerprints() {}

    public static String of(String ruleId, String methodSignature, String statement, String discriminator) {
        String normalised = statement.replaceAll("\\s+", "");
        return sha256(ruleId + "\n" + methodSignature + "\n" + normalised + "\n" + discriminator).substring(0, 32);
    }

    public static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
