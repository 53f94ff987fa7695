package com.example.app;

import com.example.client.PaymentClient;
import org.springframework.transaction.annotation.Transactional;

public class CheckoutService {

    private final PaymentClient payments; private javax.sql.DataSource dataSource;

    public CheckoutService(PaymentClient payments) {
        this.payments = payments;
    }

    @Transactional
    public String checkout(String orderId) throws java.sql.SQLException {
        try (java.sql.PreparedStatement mark = dataSource.getConnection().prepareStatement("UPDATE orders SET state = 'PAYING' WHERE id = ?")) { mark.setString(1, orderId); mark.executeUpdate(); } return payments.charge(orderId);
    }
}
