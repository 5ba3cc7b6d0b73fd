import { ApiProperty } from '@nestjs/swagger';

/** POST /v1/notifications/stream-tickets */
export class StreamTicketView {
  @ApiProperty({ description: 'Opens one stream: GET /v1/notifications/stream?ticket=<ticket>. Single use; keep it out of logs.', example: 'q0Zr3c8mJ1c2Vx5a7Q0b9Kx2Yw4n6p8s1u3w5y7A9C0' })
  ticket: string;

  @ApiProperty({ format: 'date-time', description: 'Unused by then, the ticket is refused (at most 60 s after it was issued)' })
  expiresAt: string;
}
