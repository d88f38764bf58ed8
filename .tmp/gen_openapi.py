import re
p='/work/wt-po/api/openapi.yaml'
s=open(p).read()

def hdrs(indent, extra=()):
    names=['X-Request-ID','X-API-Version','X-RateLimit-Limit','X-RateLimit-Remaining','X-RateLimit-Reset']+list(extra)
    out=[]
    for n in names:
        ref = {'Location':'PurchaseLocation','Idempotent-Replayed':'Idempotent-Replayed','X-Total-Count':'X-Total-Count','X-Page':'X-Page','X-Page-Size':'X-Page-Size'}.get(n,n)
        out.append(' '*indent+n+':')
        out.append(' '*indent+"  $ref: '#/components/headers/"+ref+"'")
    return '\n'.join(out)

def errs(codes):
    m={'400':'BadRequest','401':'Unauthorized','403r':'ForbiddenRead','403rs':'ForbiddenReadScope','403ws':'ForbiddenWriteScope',
       '404':'NotFound','409':'Conflict','413':'PayloadTooLarge','415':'UnsupportedMediaType','422':'IdempotencyMismatch',
       '429':'TooManyRequests','500':'InternalError','503':'ServiceUnavailable'}
    out=[]
    for c in codes:
        out.append("        '%s':" % c[:3])
        out.append("          $ref: '#/components/responses/%s'" % m[c])
    return '\n'.join(out)

ORDER_EXAMPLE = '''                    poNo: PO-000001
                    vendor: Boltco Supplies
                    vendorID: 2
                    orderDate: '2025-01-15T00:00:00Z'
                    expectedDate: '2025-01-22T00:00:00Z'
                    status: Partial
                    totalLines: 1
                    totalValue: 125
                    reference: REQ-88
                    remark: ''
                    created: '2025-01-15T09:45:00Z'
                    modified: '2025-01-16T08:00:00Z'
                    lines:
                      - lineNo: 1
                        partNo: 1
                        shortID: BOLT-M8
                        description: Hex bolt M8x45
                        units: 500
                        unitsReceived: 200
                        unitsInTransit: 0
                        unitsRejected: 0
                        unitsDue: 300
                        unitPrice: 0.25
                        warehouse: 1
                        warehouseName: Main
                        owner: 0'''

def indent(text, n):
    return '\n'.join((' '*n + l[20:]) if l.strip() else l for l in text.split('\n'))

list_params = '''      parameters:
        - $ref: '#/components/parameters/OrderStartDate'
        - $ref: '#/components/parameters/OrderEndDate'
        - $ref: '#/components/parameters/OrderStatus'
        - $ref: '#/components/parameters/OrderItemID'
        - $ref: '#/components/parameters/OrderWID'
        - $ref: '#/components/parameters/OrderOwner'
        - $ref: '#/components/parameters/Page'
        - $ref: '#/components/parameters/OrderPageSize'
        - $ref: '#/components/parameters/PurchaseSort'
        - $ref: '#/components/parameters/Direction'
        - $ref: '#/components/parameters/ModifiedSince\''''

def list_op(op, summary, desc):
    return '''    get:
      tags: [Purchase orders]
      operationId: %s
      summary: %s
      description: |
%s
%s
      responses:
        '200':
          description: A page of purchase orders, without their lines.
          headers:
%s
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PurchaseOrderPage'
              examples:
                page:
                  value:
                    value:
                      - poNo: PO-000001
                        vendor: Boltco Supplies
                        vendorID: 2
                        orderDate: '2025-01-15T00:00:00Z'
                        expectedDate: '2025-01-22T00:00:00Z'
                        status: Open
                        totalLines: 1
                        totalValue: 125
                        reference: REQ-88
                        remark: ''
                        created: '2025-01-15T09:45:00Z'
                        modified: '2025-01-15T09:45:00Z'
                    totalCount: 1
                    page: 1
                    pageSize: 25
                    pageCount: 1
                    hasMore: false
%s''' % (op, summary, desc, list_params, hdrs(12, ['X-Total-Count','X-Page','X-Page-Size']),
         errs(['400','401','403rs','404','413','429','500','503']))

LIST_DESC = '''        Permission 11. A page of the %s purchase orders the client sees, in order-date
        order (then creation) by default, at most 50 per page. A client sees an order
        when one of its lines is for a warehouse in its scope and an owner among its
        owners; `totalLines` and `totalValue` count those lines only (with `owner`,
        that owner's only). Entries carry no `lines`: read one order for them.
        `modifiedSince` compares with the order's `modified`, which moves with every
        change to the order or its lines (receipts included).'''

paths = '''  /api/v1/PurchaseOrder:
    parameters:
      - $ref: '#/components/parameters/RequestID'
''' + list_op('listOpenPurchaseOrders', 'List the open purchase orders', LIST_DESC % 'open (`Open` and `Partial`)') + '''
    post:
      tags: [Purchase orders]
      operationId: createPurchaseOrder
      summary: Place a purchase order
      description: |
        Permission 301. Places an order of one to 1000 lines with vendor `vendorID`
        (a vendorID or vendor ShortID of an active vendor) and answers `201` with the
        full order and a `Location` header naming it. `poNo` is optional: without it
        the next free number is assigned (`PO-000001`, `PO-000002`, ...); a number
        taken already, in any letter case, is `409`. Lines are numbered 1, 2, ... in
        the order given; each names an item (`itemID`), `units` above 0, a
        `warehouse` (or `wid`), optionally a `unitPrice` (default 0) and an `owner`
        (default: the item's `dfltOwner`). What each line has due counts in its
        item's `onOrder` at once, and each line is an `order` transaction in the
        ledger, all in one transaction.

        Checks, in order: every field (all failures at once, `400`, a line's named
        `lines[i].units` and so on), each line's warehouse scope and owner
        (`403`), the items (`404`), each line's default owner (`403` when outside
        the client's owners), then the number, and lines of a discontinued item,
        an inactive warehouse or an inactive customer (`409`).
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/PurchaseOrderCreate'
            examples:
              order:
                value:
                  vendorID: BOLTCO
                  expectedDate: '2025-01-22'
                  reference: REQ-88
                  lines:
                    - itemID: BOLT-M8
                      units: 500
                      unitPrice: 0.25
                      warehouse: 1
      responses:
        '201':
          description: Placed. The body is the full order; `Location` names it.
          headers:
%s
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PurchaseOrder'
              examples:
                placed:
                  value:
%s
%s
    put:
      tags: [Purchase orders]
      operationId: updatePurchaseOrder
      summary: Change a purchase order
      description: |
        Permission 301. Changes the open order named by `poNo` (any letter case) and
        answers `200` with the full order. `orderDate`, `expectedDate`, `reference`
        and `remark` change when given. A line with `lineNo` changes that line's
        `units` (not below what has been received, rejected or is in transit:
        `409`) and `unitPrice`; its `itemID`, `warehouse` and `owner` may be given
        but must be the line's (else a validation error). A line without `lineNo`
        is added, as on `POST`, and numbered after the last. `vendorID`, when given,
        must be the order's. Every change of what a line has due moves `onOrder`
        and is an `order` transaction in the ledger, in one transaction; an order
        whose every line has then arrived in full is `Closed`.

        Every line of the order must be in the client's scope (warehouse and
        owner), else `403`; an order with no line in its scope is `404`, as if
        absent. A `Closed` or `Canceled` order is `409`.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/PurchaseOrderUpdate'
            examples:
              more:
                value:
                  poNo: PO-000001
                  remark: call before delivery
                  lines:
                    - lineNo: 1
                      units: 600
                    - itemID: BOLT-M8
                      units: 50
                      warehouse: 2
      responses:
        '200':
          description: Changed (or already as asked). The body is the full order.
          headers:
%s
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PurchaseOrder'
%s

  /api/v1/PurchaseOrder/All:
    parameters:
      - $ref: '#/components/parameters/RequestID'
''' % (hdrs(12, ['Location','Idempotent-Replayed']), indent(ORDER_EXAMPLE, 20),
       errs(['400','401','403ws','404','409','413','415','422','429','500','503']),
       hdrs(12), errs(['400','401','403ws','404','409','413','415','429','500','503'])) \
  + list_op('listPurchaseOrders', 'List every purchase order', LIST_DESC % 'open, closed and canceled') + '''

  /api/v1/PurchaseOrder/{poNo}:
    parameters:
      - $ref: '#/components/parameters/RequestID'
      - $ref: '#/components/parameters/PONo'
    get:
      tags: [Purchase orders]
      operationId: getPurchaseOrder
      summary: Get a purchase order with its lines
      description: |
        Permission 11. The order with this number (any letter case), whatever its
        status, with the lines the client sees (its warehouses and owners); the
        totals count those lines. An order with none of them is `404`, as if absent.
      responses:
        '200':
          description: The order.
          headers:
%s
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PurchaseOrder'
              examples:
                one:
                  value:
%s
%s
''' % (hdrs(12), indent(ORDER_EXAMPLE, 20), errs(['400','401','403r','404','413','429','500','503']))

def end_path(name, op, summary, desc):
    return '''
  /api/v1/PurchaseOrder/{poNo}/%s:
    parameters:
      - $ref: '#/components/parameters/RequestID'
      - $ref: '#/components/parameters/PONo'
    post:
      tags: [Purchase orders]
      operationId: %s
      summary: %s
      description: |
%s
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
      responses:
        '200':
          description: The order as it is now.
          headers:
%s
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PurchaseOrder'
%s
''' % (name, op, summary, desc, hdrs(12, ['Idempotent-Replayed']),
       errs(['400','401','403ws','404','409','413','415','422','429','500','503']))

paths += end_path('Close', 'closePurchaseOrder', 'Close a purchase order', '''        Permission 301. Ends an open order (`Open` or `Partial`) as `Closed`: what its
        lines still have due stops counting in `onOrder`, and each line is an
        `order-close` transaction in the ledger (its `units` what stopped being due),
        in one transaction. No body. An order already `Closed` or `Canceled` is
        `409`; every line must be in the client's scope (`403`), and an order with
        none in it is `404`.''')
paths += end_path('Cancel', 'cancelPurchaseOrder', 'Cancel a purchase order', '''        Permission 301. Ends an open order of which nothing has been received,
        rejected or is in transit as `Canceled` (else `409`: close it instead): its
        lines stop counting in `onOrder`, and each line is an `order-cancel`
        transaction in the ledger, in one transaction. No body. An order already
        ended is `409`; every line must be in the client's scope (`403`), and an
        order with none in it is `404`.''')

anchor = '  /api/v1/Warehouse:\n'
assert s.count(anchor)==1
s = s.replace(anchor, paths + '\n' + anchor)
open(p,'w').write(s)
