package com.example.orders;

import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.client.RestTemplate;

public class OrderService {

    private final RestTemplate restTemplate; private javax.sql.DataSource dataSource;

    public OrderService(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    @Transactional
    public String placeOrder(String orderId) throws java.sql.SQLException {
        try (java.sql.PreparedStatement mark = dataSource.getConnection().prepareStatement("UPDATE orders SET state = 'PAYING' WHERE id = ?")) { mark.setString(1, orderId); mark.executeUpdate(); } return restTemplate.postForObject("http://payments/charge", orderId, String.class);
    }
}
