package dev.racelint.analyzer.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.ClasspathTypes;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MyBatis-Plus's inherited CRUD calls become the statements the framework issues: table from
 * {@code @TableName} or the entity's snake-case name, key from {@code @TableId}, WHERE and SET from
 * the wrapper and the entity's setters, read by the SQL model like any other statement.
 */
class MyBatisPlusTest {

    private static final String ENTITY = """
            package p;
            import com.baomidou.mybatisplus.annotation.TableId;
            import com.baomidou.mybatisplus.annotation.TableName;
            @TableName("t_pay_order")
            public class PayOrder {
                public static final byte STATE_ING = 1;
                public static final byte STATE_SUCCESS = 2;
                @TableId private String payOrderId;
                private String mchNo;
                private String mchOrderNo;
                private Byte state;
                private long stock;
                public String getPayOrderId() { return payOrderId; }
                public String getMchNo() { return mchNo; }
                public String getMchOrderNo() { return mchOrderNo; }
                public Byte getState() { return state; }
                public void setState(Byte s) { state = s; }
                public long getStock() { return stock; }
            }
            """;
    private static final String PLAIN = """
            package p;
            public class StockItem { private Long id; private int lockedStock; public Long getId() { return id; } }
            """;
    private static final String SERVICE = """
            package p;
            import com.baomidou.mybatisplus.core.conditions.query.LambdaQueryWrapper;
            import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
            import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
            public class PayOrderService extends ServiceImpl<PayOrderMapper, PayOrder> {
                public boolean claim(String id, String channelNo) {
                    PayOrder change = new PayOrder();
                    change.setState(PayOrder.STATE_SUCCESS);
                    return update(change, new LambdaUpdateWrapper<PayOrder>()
                            .eq(PayOrder::getPayOrderId, id).eq(PayOrder::getState, PayOrder.STATE_ING));
                }
                public boolean setById(String id, Byte state) {
                    return this.update(new LambdaUpdateWrapper<PayOrder>().set(PayOrder::getState, state)
                            .eq(PayOrder::getPayOrderId, id));
                }
                public long exists(String mch, String no) {
                    LambdaQueryWrapper<PayOrder> w = new LambdaQueryWrapper<>();
                    w.eq(PayOrder::getMchNo, mch);
                    w.eq(PayOrder::getMchOrderNo, no);
                    return count(w);
                }
                public boolean retouch(String id) {
                    return update(new LambdaUpdateWrapper<PayOrder>().set(PayOrder::getState, PayOrder.STATE_ING)
                            .eq(PayOrder::getPayOrderId, id).eq(PayOrder::getState, (byte) 1));
                }
                public void create(PayOrder order) { save(order); }
                public void chain(String id) {
                    lambdaUpdate().eq(PayOrder::getPayOrderId, id).set(PayOrder::getState, PayOrder.STATE_ING).update();
                }
            }
            """;
    private static final String MAPPER = """
            package p;
            import com.baomidou.mybatisplus.core.mapper.BaseMapper;
            import org.apache.ibatis.annotations.Update;
            public interface PayOrderMapper extends BaseMapper<PayOrder> {
                @Update("UPDATE t_pay_order SET state = 1 WHERE pay_order_id = #{id}")
                int markIng(String id);
            }
            """;
    private static final String THROUGH_SERVICE = """
            package p;
            public class Resend {
                private PayOrderService orders;
                private IStockService stock;
                void resend(String id) { orders.getBaseMapper().markIng(id); }
                void notAMapper(String id) { stock.getBaseMapper().markIng(id); }
            }
            """;
    private static final String STOCK = """
            package p;
            import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
            import com.baomidou.mybatisplus.extension.service.IService;
            public class Stock {
                private IStockService stock;
                boolean reserve(long id, int q) {
                    return stock.update(new LambdaUpdateWrapper<StockItem>()
                            .setSql("locked_stock = locked_stock + " + q).eq(StockItem::getId, id));
                }
                StockItem load(long id) { return stock.getById(id); }
            }
            interface IStockService extends IService<StockItem> {}
            """;

    private static DbOpClassifier classifier;
    private static List<CompilationUnit> units = new ArrayList<>();

    @BeforeAll
    static void index() {
        JavaParser parser = new JavaParser(new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));
        List<ParsedFile> files = new ArrayList<>();
        String[] sources = {ENTITY, PLAIN, SERVICE, MAPPER, STOCK, THROUGH_SERVICE};
        for (int i = 0; i < sources.length; i++) {
            CompilationUnit unit = parser.parse(sources[i]).getResult().orElseThrow();
            units.add(unit);
            files.add(new ParsedFile(Path.of("p/F" + i + ".java"), unit));
        }
        ProgramIndex index = ProgramIndex.build(files);
        CallResolver resolver = new CallResolver(index, new ExpressionTyper(index, ClasspathTypes.NONE), ApiCatalogue.builtIn());
        classifier = new DbOpClassifier(index, resolver, new EntityModel(index), new SqlFactsSource(index), MyBatisXml.empty());
    }

    /** The operation of the first call named {@code call} in method {@code method}. */
    private static Optional<DbOp> op(String method, String call) {
        for (CompilationUnit unit : units) {
            for (MethodDeclaration m : unit.findAll(MethodDeclaration.class)) {
                if (m.getNameAsString().equals(method)) {
                    for (MethodCallExpr c : m.findAll(MethodCallExpr.class)) {
                        if (c.getNameAsString().equals(call)) {
                            return classifier.classify(c);
                        }
                    }
                }
            }
        }
        throw new AssertionError("no call " + call + " in " + method);
    }

    @Test
    void entityUpdateWithAConstantStateIsAGuardedClaimOnTheNamedTable() {
        DbOp op = op("claim", "update").orElseThrow();
        assertThat(op.kind()).isEqualTo(DbOp.Kind.UPDATE);
        assertThat(op.table()).isEqualTo("t_pay_order");
        assertThat(op.conditional()).isTrue();
        assertThat(op.keyColumns()).containsExactly("pay_order_id");
    }

    @Test
    void constantsKeepTheirValuesSoAMoveOutOfTheComparedStateIsAnEndStateWrite() {
        assertThat(op("claim", "update").orElseThrow().endState()).isTrue(); // SET state = 2 WHERE state = 1
        DbOp same = op("retouch", "update").orElseThrow(); // SET state = 1 WHERE state = 1: not out of it
        assertThat(same.conditional()).isTrue();
        assertThat(same.endState()).isFalse();
    }

    @Test
    void aSetByKeyAloneIsNoGuard() {
        DbOp op = op("setById", "update").orElseThrow();
        assertThat(op.conditional()).isFalse();
        assertThat(op.keyColumns()).containsExactly("pay_order_id");
        assertThat(op.selfRelative()).isFalse();
    }

    @Test
    void aWrapperBuiltOnALocalGivesTheCountItsColumns() {
        DbOp op = op("exists", "count").orElseThrow();
        assertThat(op.kind()).isEqualTo(DbOp.Kind.READ);
        assertThat(op.shape()).isEqualTo(DbOp.ReadShape.COUNT);
        assertThat(op.keyColumns()).containsExactlyInAnyOrder("mch_no", "mch_order_no");
    }

    @Test
    void saveIsAnInsertAndTheChainEndsAtItsTerminalCall() {
        assertThat(op("create", "save").orElseThrow().kind()).isEqualTo(DbOp.Kind.INSERT);
        DbOp chain = op("chain", "lambdaUpdate").orElseThrow();
        assertThat(chain.kind()).isEqualTo(DbOp.Kind.UPDATE);
        assertThat(chain.end().getNameAsString()).isEqualTo("update");
    }

    @Test
    void setSqlIsARelativeUpdateAndAnUnannotatedEntityMapsToItsSnakeCaseName() {
        DbOp op = op("reserve", "update").orElseThrow();
        assertThat(op.table()).isEqualTo("stock_item");
        assertThat(op.selfRelative()).isTrue();
        DbOp read = op("load", "getById").orElseThrow();
        assertThat(read.kind()).isEqualTo(DbOp.Kind.READ);
        assertThat(read.keyColumns()).containsExactly("id");
    }

    @Test
    void getBaseMapperOnAServiceImplSubclassIsItsMapper() {
        // ServiceImpl<PayOrderMapper, PayOrder>.getBaseMapper() returns the PayOrderMapper, whose statement runs
        DbOp op = op("resend", "markIng").orElseThrow();
        assertThat(op.kind()).isEqualTo(DbOp.Kind.UPDATE);
        assertThat(op.table()).isEqualTo("t_pay_order");
        // IService<T> binds no mapper type: the accessor's type stays unknown
        assertThat(op("notAMapper", "markIng")).isEmpty();
    }
}
