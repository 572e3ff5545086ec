package dev.ssdpulse.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The docs check of the build: every Markdown document of the repository names only classes, packages, files and
 * presets that exist, shows only ssdpulse commands the real commands parse, links only to existing files and
 * headings, and README's Layout names every package of every module. {@link DocsCheck} says exactly what counts.
 */
class DocsCheckTest {

    @Test
    void everyDocumentNamesWhatExistsAndShowsCommandsThatParse() {
        SourceTree tree = SourceTree.scan(SourceTree.findRoot(Path.of("")));
        assertThat(tree.markdownFiles()).as("the documents found").hasSizeGreaterThan(5);

        List<String> problems = new DocsCheck(tree, new ClasspathNames(tree.root())).run();

        assertThat(problems)
                .withFailMessage(
                        () -> problems.size() + " stale spot(s) in the documents:\n" + String.join("\n", problems))
                .isEmpty();
    }
}
