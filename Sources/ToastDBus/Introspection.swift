/// Introspection XML for our two objects. The Peer interface is answered by sd-bus itself.
enum Introspection {
    static let header = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

    static let standardInterfaces = """
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="props" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg name="machine_uuid" type="s" direction="out"/>
        </method>
      </interface>

    """

    static let notifications = header + """
    <node>
      <interface name="org.freedesktop.Notifications">
        <method name="Notify">
          <arg name="app_name" type="s" direction="in"/>
          <arg name="replaces_id" type="u" direction="in"/>
          <arg name="app_icon" type="s" direction="in"/>
          <arg name="summary" type="s" direction="in"/>
          <arg name="body" type="s" direction="in"/>
          <arg name="actions" type="as" direction="in"/>
          <arg name="hints" type="a{sv}" direction="in"/>
          <arg name="expire_timeout" type="i" direction="in"/>
          <arg name="id" type="u" direction="out"/>
        </method>
        <method name="CloseNotification">
          <arg name="id" type="u" direction="in"/>
        </method>
        <method name="GetCapabilities">
          <arg name="capabilities" type="as" direction="out"/>
        </method>
        <method name="GetServerInformation">
          <arg name="name" type="s" direction="out"/>
          <arg name="vendor" type="s" direction="out"/>
          <arg name="version" type="s" direction="out"/>
          <arg name="spec_version" type="s" direction="out"/>
        </method>
        <signal name="NotificationClosed">
          <arg name="id" type="u"/>
          <arg name="reason" type="u"/>
        </signal>
        <signal name="ActionInvoked">
          <arg name="id" type="u"/>
          <arg name="action_key" type="s"/>
        </signal>
        <signal name="ActivationToken">
          <arg name="id" type="u"/>
          <arg name="activation_token" type="s"/>
        </signal>
      </interface>
    \(standardInterfaces)</node>

    """

    static let hud = header + """
    <node>
      <interface name="org.toastd.Hud1">
        <method name="ShowValue">
          <arg name="kind" type="s" direction="in"/>
          <arg name="value" type="i" direction="in"/>
          <arg name="label" type="s" direction="in"/>
          <arg name="muted" type="b" direction="in"/>
        </method>
        <method name="LoadingStart">
          <arg name="key" type="s" direction="in"/>
          <arg name="label" type="s" direction="in"/>
        </method>
        <method name="LoadingStop">
          <arg name="key" type="s" direction="in"/>
        </method>
      </interface>
    \(standardInterfaces)</node>

    """
}
