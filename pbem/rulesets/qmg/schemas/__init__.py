"""The Quartermaster General schemas: orders, standing orders and the state."""
