package dev.racelint.analyzer.finding;

import java.util.ArrayList;
import java.util.List;

/**
 * A finding's message: plain text with some spans linked to related locations. Writers render
 * it as plain text (terminal, JSON) or with SARIF's {@code [text](id)} links.
 */
public final class Message {

    /** A run of text; {@code relatedIndex} is the 0-based index of a related location, or -1. */
    public record Segment(String text, int relatedIndex) {}

    private final List<Segment> segments;

    private Message(List<Segment> segments) {
        this.segments = List.copyOf(segments);
    }

    public static Message of(String text) {
        return builder().text(text).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<Segment> segments() {
        return segments;
    }

    public String plain() {
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            out.append(s.text());
        }
        return out.toString();
    }

    /** SARIF message text: linked spans become {@code [text](id)} with id = index + 1. */
    public String sarif() {
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            String escaped = escapeBrackets(s.text());
            if (s.relatedIndex() >= 0) {
                out.append('[').append(escaped).append("](").append(s.relatedIndex() + 1).append(')');
            } else {
                out.append(escaped);
            }
        }
        return out.toString();
    }

    private static String escapeBrackets(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '[' || c == ']' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return plain();
    }

    public static final class Builder {
        private final List<Segment> segments = new ArrayList<>();

        public Builder text(String text) {
            segments.add(new Segment(text, -1));
            return this;
        }

        /** Appends all of {@code message}'s segments, links included. */
        public Builder append(Message message) {
            segments.addAll(message.segments);
            return this;
        }

        public Builder link(String text, int relatedIndex) {
            segments.add(new Segment(text, relatedIndex));
            return this;
        }

        public Message build() {
            return new Message(segments);
        }
    }
}
