package dev.racelint.analyzer.effects;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.stmt.IfStmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A remote create that runs only in the branch an existence read of the same resource decides:
 * {@code if (!s3.doesBucketExistV2(bucket)) s3.createBucket(bucket)}, or a v2 listing of the buckets
 * searched for the name the create's request is built with. Which reads decide which create is
 * catalogue data ({@code createIfAbsent}); "the same resource" is data flow: every value the create
 * names its resource with (its plain arguments, or those given to its request's builder chain) occurs
 * in the condition, which calls the read on the create's receiver. A retry finds the resource the first
 * request created and does not create it again. The polarity of the test is not needed: a create
 * under a test that the resource exists fails on the first request already.
 */
final class CreateIfAbsent {

    private CreateIfAbsent() {}

    /** The deciding existence read's source, or null when {@code create} is not behind one of {@code reads}. */
    static String existenceRead(MethodCallExpr create, Set<String> reads) {
        Expression receiver = create.getScope().orElse(null);
        List<Expression> resource = resource(create);
        if (reads.isEmpty() || receiver == null || resource.isEmpty()) {
            return null;
        }
        Node child = create;
        for (Node parent = create.getParentNode().orElse(null); parent != null
                && !(child instanceof CallableDeclaration<?>) && !(child instanceof LambdaExpr);
                child = parent, parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof IfStmt branch && branch.getThenStmt() == child) {
                Expression condition = branch.getCondition();
                for (MethodCallExpr read : condition.findAll(MethodCallExpr.class)) {
                    if (reads.contains(read.getNameAsString()) && receiver.equals(read.getScope().orElse(null))
                            && resource.stream().allMatch(r -> condition.findFirst(Expression.class, r::equals).isPresent())) {
                        return read.toString();
                    }
                }
            }
        }
        return null;
    }

    /** The values the call names its resource with: plain arguments, or those of a builder chain passed to it. */
    private static List<Expression> resource(MethodCallExpr call) {
        List<Expression> out = new ArrayList<>();
        for (Expression argument : call.getArguments()) {
            if (value(argument)) {
                out.add(argument);
            }
            for (Expression link = argument; link instanceof MethodCallExpr chained;
                    link = chained.getScope().orElse(null)) {
                chained.getArguments().stream().filter(CreateIfAbsent::value).forEach(out::add);
            }
        }
        return out;
    }

    private static boolean value(Expression e) {
        return e instanceof NameExpr || e instanceof FieldAccessExpr || e instanceof StringLiteralExpr;
    }
}
