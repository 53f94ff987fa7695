package dev.racelint.analyzer.parse;

import dev.racelint.analyzer.source.SourceFile;

/**
 * Syntax trees kept from an earlier scan, by file contents: the parser asks it before parsing a file
 * and offers it each tree it had to parse.
 */
public interface TreeStore {

    /** Keeps nothing: every file is parsed. */
    TreeStore NONE = new TreeStore() {
        @Override
        public ParsedFile load(SourceFile source) {
            return null;
        }

        @Override
        public void save(SourceFile source, ParsedFile file) {
            // nothing kept
        }
    };

    /** The tree of the file's current contents, or null when there is none (it is then parsed). */
    ParsedFile load(SourceFile source);

    /** Offers a tree just parsed (and compacted) without any diagnostic. Called concurrently. */
    void save(SourceFile source, ParsedFile file);
}
