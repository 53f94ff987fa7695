package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.parse.NodeMemo;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.TryStmt;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL text of a Java expression, read from source without running anything.
 *
 * <p>Supported: string literals and text blocks; {@code +} concatenation (a part that cannot be
 * read, such as a method parameter, becomes the placeholder {@code ?}, so
 * {@code "... WHERE id = " + id} still parses); local variables initialised once and never
 * reassigned; {@code final} fields (and private fields never assigned) initialised with a
 * supported expression, in the same class or its outer classes or supertypes, in another class
 * by simple or qualified name ({@code SubscriptionSql.INSERT}), or through static imports;
 * {@code String.format(template, args)} and {@code template.formatted(args)} (each argument is
 * read like any other part, {@code ?} when it cannot be); {@code trim()} / {@code strip()} /
 * {@code stripIndent()} / {@code concat(..)} on a supported string. Everything else
 * ({@code StringBuilder}, {@code String.join}, ternaries, method results) gives empty.
 *
 * <p>Thread-safe; results are memoised per expression node (by identity) and per constant
 * declaration. Never throws.
 */
public final class SqlStrings {

    private static final String UNKNOWN = "?";
    private static final Pattern FORMAT_SPEC = Pattern.compile(
            "%(\\d+\\$)?([-#+ 0,(<]*)?(\\d+)?(\\.\\d+)?([tT])?([a-zA-Z%])");
    private static final Set<String> STRING_TRANSFORMS = Set.of("trim", "strip", "stripIndent", "stripLeading",
            "stripTrailing", "intern", "toString");

    /** A value read from source: its text, and whether it is a String (rather than a number, char...). */
    private record Value(String text, boolean string) {}

    private static final Value NONE = new Value(null, false);

    /**
     * A declaration's value and how many levels below its initializer reading it took, so that a value
     * memoised from a shallow read is not used where reading it would have gone past the depth limit.
     */
    private record Known(Value value, int levels) {}

    private final NodeMemo<Optional<String>> memo = new NodeMemo<>();
    private final NodeMemo<Known> declarations = new NodeMemo<>();
    /** How deep an expression is followed ({@code sql-expression-depth}). */
    private final int maxDepth;
    /** The longest text built from parts ({@code sql-text-chars}). */
    private final int maxLength;

    public SqlStrings() {
        this(AnalysisLimits.DEFAULT);
    }

    /** Reading expressions within {@code sql-expression-depth} levels and {@code sql-text-chars} characters. */
    public SqlStrings(AnalysisLimits limits) {
        this.maxDepth = limits.get(AnalysisLimits.Limit.SQL_EXPRESSION_DEPTH);
        this.maxLength = limits.get(AnalysisLimits.Limit.SQL_TEXT_CHARS);
    }
    private final NodeMemo<Set<String>> assignedNames = new NodeMemo<>();

    /** The text of {@code expr} when it is a String this class can read; else empty. */
    public Optional<String> valueOf(Expression expr, ProgramIndex index) {
        if (expr == null || index == null) {
            return Optional.empty();
        }
        Optional<String> known = memo.get(expr);
        if (known != null) {
            return known;
        }
        Optional<String> result;
        Evaluation evaluation = new Evaluation(index);
        try {
            Value v = evaluation.eval(expr, 0);
            result = v != null && v.string() && v.text() != null ? Optional.of(v.text()) : Optional.empty();
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.empty();
        }
        if (evaluation.cycle) {
            return Optional.empty(); // constants defined through each other: nothing reliable
        }
        memo.put(expr, result);
        return result;
    }

    /** One top-level evaluation: the declarations being evaluated (cycle guard). */
    private final class Evaluation {
        private final ProgramIndex index;
        private final Set<Node> visiting = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean cycle;
        /** The depth limit cut the reading short: what was read is not memoised per declaration. */
        boolean cut;
        /** The deepest level reached so far. */
        int deepest;

        Evaluation(ProgramIndex index) {
            this.index = index;
        }

        /** The value, or null when it cannot be read. */
        Value eval(Expression e, int depth) {
            if (e == null) {
                return null;
            }
            if (depth > maxDepth) {
                cut = true;
                return null;
            }
            deepest = Math.max(deepest, depth);
            if (e instanceof StringLiteralExpr s) {
                return new Value(s.asString(), true);
            }
            if (e instanceof TextBlockLiteralExpr tb) {
                return new Value(tb.asString(), true);
            }
            if (e instanceof CharLiteralExpr c) {
                return new Value(String.valueOf(c.asChar()), false);
            }
            if (e instanceof IntegerLiteralExpr i) {
                return new Value(i.asNumber().toString(), false);
            }
            if (e instanceof LongLiteralExpr l) {
                return new Value(l.asNumber().toString(), false);
            }
            if (e instanceof DoubleLiteralExpr d) {
                return new Value(d.getValue(), false);
            }
            if (e instanceof BooleanLiteralExpr b) {
                return new Value(String.valueOf(b.getValue()), false);
            }
            if (e instanceof EnclosedExpr en) {
                return eval(en.getInner(), depth + 1);
            }
            if (e instanceof CastExpr cast) {
                return eval(cast.getExpression(), depth + 1);
            }
            if (e instanceof BinaryExpr bin && bin.getOperator() == BinaryExpr.Operator.PLUS) {
                return concat(bin, depth);
            }
            if (e instanceof NameExpr name) {
                return name(name, depth);
            }
            if (e instanceof FieldAccessExpr fa) {
                return fieldAccess(fa, depth);
            }
            if (e instanceof MethodCallExpr call) {
                return call(call, depth);
            }
            return null;
        }

        private Value concat(BinaryExpr bin, int depth) {
            List<Expression> parts = new ArrayList<>();
            Expression left = bin;
            while (left instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
                parts.add(0, b.getRight());
                left = b.getLeft();
            }
            parts.add(0, left);
            List<Value> values = new ArrayList<>();
            boolean string = false;
            boolean anyResolved = false;
            for (Expression part : parts) {
                Value v = eval(part, depth + 1);
                values.add(v);
                if (v != null) {
                    anyResolved = true;
                    string |= v.string();
                }
            }
            if (!anyResolved || !string) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            for (Value v : values) {
                out.append(v == null ? UNKNOWN : v.text());
                if (out.length() > maxLength) {
                    return null;
                }
            }
            return new Value(out.toString(), true);
        }

        // ---- names ----------------------------------------------------------------------------

        private Value name(NameExpr name, int depth) {
            String id = name.getNameAsString();
            Local local = findLocal(id, name);
            if (local != null) {
                if (local.declarator() == null || local.declarator().getInitializer().isEmpty()
                        || reassigned(id, local.scope())) {
                    return null;
                }
                return declaration(local.declarator(), depth);
            }
            for (TypeInfo t = index.enclosingType(name); t != null; t = t.outer()) {
                Field f = findField(t, id);
                if (f != null) {
                    return field(f, depth);
                }
            }
            FileContext file = index.fileOf(name);
            if (file != null) {
                String owner = file.staticMemberImport(id);
                if (owner != null) {
                    TypeInfo t = index.type(owner);
                    Field f = t == null ? null : findField(t, id);
                    if (f != null) {
                        return field(f, depth);
                    }
                }
                for (String owner2 : file.staticOnDemandImports()) {
                    TypeInfo t = index.type(owner2);
                    Field f = t == null ? null : findField(t, id);
                    if (f != null) {
                        return field(f, depth);
                    }
                }
            }
            return null;
        }

        private Value fieldAccess(FieldAccessExpr fa, int depth) {
            String id = fa.getNameAsString();
            Expression scope = fa.getScope();
            if (scope instanceof ThisExpr || scope instanceof SuperExpr) {
                TypeInfo t = index.enclosingType(fa);
                Field f = t == null ? null : findField(t, id);
                return f == null ? null : field(f, depth);
            }
            if (!(scope instanceof NameExpr || scope instanceof FieldAccessExpr)) {
                return null;
            }
            FileContext file = index.fileOf(fa);
            if (file == null) {
                return null;
            }
            String written = scope.toString();
            TypeRef ref = index.resolveTypeName(written, fa, file);
            if (ref == null || !ref.isProject()) {
                return null;
            }
            Field f = findField(ref.project(), id);
            return f == null ? null : field(f, depth);
        }

        private Value field(Field f, int depth) {
            VariableDeclarator v = f.declarator();
            if (v.getInitializer().isEmpty()) {
                return null;
            }
            boolean constant = f.declaration().isFinal() || f.owner().isInterface()
                    || f.declaration().isPrivate() && !assignedInFile(v.getNameAsString(), f.owner());
            return constant ? declaration(v, depth) : null;
        }

        /** The value of a variable's initializer, memoised per declaration, cycles cut. */
        private Value declaration(VariableDeclarator v, int depth) {
            int start = depth + 1;
            Known known = declarations.get(v);
            if (known != null) {
                if (known.value() == NONE) {
                    return null;
                }
                if (start + known.levels() > maxDepth) {
                    cut = true; // read from here, it would have gone past the limit
                    return null;
                }
                deepest = Math.max(deepest, start + known.levels());
                return known.value();
            }
            if (!visiting.add(v)) {
                cycle = true;
                return null;
            }
            boolean cycleBefore = cycle;
            boolean cutBefore = cut;
            int deepestBefore = deepest;
            cycle = false;
            cut = false;
            deepest = start;
            Value value;
            try {
                value = eval(v.getInitializer().orElse(null), start);
            } finally {
                visiting.remove(v);
            }
            if (!cycle && !cut) {
                declarations.put(v, new Known(value == null ? NONE : value, deepest - start));
            }
            cycle |= cycleBefore;
            cut |= cutBefore;
            deepest = Math.max(deepest, deepestBefore);
            return value;
        }

        private Field findField(TypeInfo type, String name) {
            return fieldIn(type, name, index);
        }

        // ---- calls ----------------------------------------------------------------------------

        private Value call(MethodCallExpr call, int depth) {
            String name = call.getNameAsString();
            NodeList<Expression> args = call.getArguments();
            Optional<Expression> scope = call.getScope();
            if (name.equals("format") && scope.isPresent() && isStringType(scope.get()) && !args.isEmpty()) {
                Value template = eval(args.get(0), depth + 1);
                int first = 1;
                if ((template == null || !template.string()) && args.size() >= 2) {
                    template = eval(args.get(1), depth + 1); // String.format(Locale, template, args)
                    first = 2;
                }
                if (template == null || !template.string()) {
                    return null;
                }
                return format(template.text(), args.subList(first, args.size()), depth);
            }
            if (scope.isEmpty()) {
                return null;
            }
            if (name.equals("formatted")) {
                Value template = eval(scope.get(), depth + 1);
                return template == null || !template.string() ? null : format(template.text(), args, depth);
            }
            if (STRING_TRANSFORMS.contains(name) && args.isEmpty()) {
                Value v = eval(scope.get(), depth + 1);
                if (v == null || !v.string()) {
                    return null;
                }
                String t = v.text();
                String out = switch (name) {
                    case "trim" -> t.trim();
                    case "strip" -> t.strip();
                    case "stripIndent" -> t.stripIndent();
                    case "stripLeading" -> t.stripLeading();
                    case "stripTrailing" -> t.stripTrailing();
                    default -> t;
                };
                return new Value(out, true);
            }
            if (name.equals("concat") && args.size() == 1) {
                Value v = eval(scope.get(), depth + 1);
                if (v == null || !v.string()) {
                    return null;
                }
                Value arg = eval(args.get(0), depth + 1);
                return new Value(v.text() + (arg == null ? UNKNOWN : arg.text()), true);
            }
            return null;
        }

        private boolean isStringType(Expression scope) {
            String s = scope.toString();
            return s.equals("String") || s.equals("java.lang.String");
        }

        private Value format(String template, List<Expression> args, int depth) {
            Matcher m = FORMAT_SPEC.matcher(template);
            StringBuilder out = new StringBuilder();
            int next = 0;
            int last = 0;
            int previousIndex = -1;
            while (m.find()) {
                out.append(template, last, m.start());
                last = m.end();
                String conversion = m.group(6);
                if (conversion.equals("%")) {
                    out.append('%');
                    continue;
                }
                if (conversion.equals("n")) {
                    out.append('\n');
                    continue;
                }
                int argIndex;
                if (m.group(1) != null) {
                    argIndex = Integer.parseInt(m.group(1).substring(0, m.group(1).length() - 1)) - 1;
                } else if (m.group(2) != null && m.group(2).contains("<")) {
                    argIndex = previousIndex;
                } else {
                    argIndex = next++;
                }
                previousIndex = argIndex;
                Value v = argIndex >= 0 && argIndex < args.size() ? eval(args.get(argIndex), depth + 1) : null;
                out.append(v == null || v.text() == null ? UNKNOWN : v.text());
            }
            out.append(template.substring(last));
            return new Value(out.toString(), true);
        }
    }

    // ---- declarations ---------------------------------------------------------------------------

    /** A local variable (declarator null for a parameter) and the node its scope is. */
    private record Local(VariableDeclarator declarator, Node scope) {}

    private record Field(TypeInfo owner, FieldDeclaration declaration, VariableDeclarator declarator) {}

    private static Field fieldIn(TypeInfo type, String name, ProgramIndex index) {
        for (TypeRef ref : index.supertypeClosure(type)) {
            if (!ref.isProject()) {
                continue;
            }
            TypeInfo t = ref.project();
            VariableDeclarator v = t.fieldDeclarator(name);
            if (v != null && v.getParentNode().orElse(null) instanceof FieldDeclaration decl) {
                return new Field(t, decl, v);
            }
        }
        return null;
    }

    /** Finds the innermost local or parameter named {@code name} visible at {@code use}. */
    private static Local findLocal(String name, Node use) {
        Node child = use;
        Node parent = use.getParentNode().orElse(null);
        while (parent != null) {
            if (parent instanceof TypeDeclaration<?>) {
                return null;
            }
            if (parent instanceof BlockStmt block) {
                VariableDeclarator v = declaredBefore(name, block.getStatements(), child);
                if (v != null) {
                    return new Local(v, block);
                }
            } else if (parent instanceof SwitchEntry entry) {
                VariableDeclarator v = declaredBefore(name, entry.getStatements(), child);
                if (v != null) {
                    return new Local(v, entry);
                }
            } else if (parent instanceof ForStmt loop) {
                for (Expression init : loop.getInitialization()) {
                    VariableDeclarator v = declared(name, init);
                    if (v != null) {
                        return new Local(v, loop);
                    }
                }
            } else if (parent instanceof ForEachStmt loop) {
                if (declared(name, loop.getVariable()) != null) {
                    return new Local(null, loop);
                }
            } else if (parent instanceof TryStmt tryStmt) {
                for (Expression resource : tryStmt.getResources()) {
                    VariableDeclarator v = declared(name, resource);
                    if (v != null) {
                        return new Local(v, tryStmt);
                    }
                }
            } else if (parent instanceof CatchClause c) {
                if (c.getParameter().getNameAsString().equals(name)) {
                    return new Local(null, c);
                }
            } else if (parent instanceof LambdaExpr lambda) {
                for (Parameter p : lambda.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return new Local(null, lambda);
                    }
                }
            } else if (parent instanceof CallableDeclaration<?> callable) {
                for (Parameter p : callable.getParameters()) {
                    if (p.getNameAsString().equals(name)) {
                        return new Local(null, callable);
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return null;
    }

    private static VariableDeclarator declaredBefore(String name, NodeList<Statement> statements, Node child) {
        VariableDeclarator found = null;
        for (Statement s : statements) {
            if (s == child) {
                break;
            }
            if (s instanceof ExpressionStmt es) {
                VariableDeclarator v = declared(name, es.getExpression());
                if (v != null) {
                    found = v;
                }
            }
        }
        return found;
    }

    private static VariableDeclarator declared(String name, Expression expr) {
        if (expr instanceof VariableDeclarationExpr decl) {
            for (VariableDeclarator v : decl.getVariables()) {
                if (v.getNameAsString().equals(name)) {
                    return v;
                }
            }
        }
        return null;
    }

    /** Is a local named {@code name} assigned (or incremented) anywhere in {@code scope}? */
    private static boolean reassigned(String name, Node scope) {
        for (AssignExpr a : scope.findAll(AssignExpr.class)) {
            if (a.getTarget() instanceof NameExpr n && n.getNameAsString().equals(name)) {
                return true;
            }
        }
        for (UnaryExpr u : scope.findAll(UnaryExpr.class)) {
            UnaryExpr.Operator op = u.getOperator();
            if (u.getExpression() instanceof NameExpr n && n.getNameAsString().equals(name)
                    && (op == UnaryExpr.Operator.PREFIX_INCREMENT || op == UnaryExpr.Operator.PREFIX_DECREMENT
                    || op == UnaryExpr.Operator.POSTFIX_INCREMENT || op == UnaryExpr.Operator.POSTFIX_DECREMENT)) {
                return true;
            }
        }
        return false;
    }

    /** Is a field named {@code name} of {@code owner} assigned anywhere in its file? */
    private boolean assignedInFile(String name, TypeInfo owner) {
        Node root = owner.file() != null ? owner.file().unit() : owner.declaration();
        return assignedNames(root).contains(name);
    }

    /**
     * The names assigned anywhere under {@code root} (as a plain name or a field access), found in one
     * walk per file: walking the file for each field read made a class's constants quadratic in its size.
     */
    private Set<String> assignedNames(Node root) {
        Set<String> known = assignedNames.get(root);
        if (known != null) {
            return known;
        }
        Set<String> names = new java.util.HashSet<>();
        for (AssignExpr a : root.findAll(AssignExpr.class)) {
            Expression target = a.getTarget();
            if (target instanceof NameExpr n) {
                names.add(n.getNameAsString());
            } else if (target instanceof FieldAccessExpr f) {
                names.add(f.getNameAsString());
            }
        }
        Set<String> frozen = Set.copyOf(names);
        assignedNames.put(root, frozen);
        return frozen;
    }
}
